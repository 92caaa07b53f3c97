extension ViewerPage {
    /// The part of the page's script after the data sources: formatting, the page's state and the
    /// session list (the newest sessions, and older ones on demand; each with its start time, app
    /// version and metadata).
    static let scriptSessions = #"""
          // ---- Formatting ----
          function el(tag, className, text) {
            const node = document.createElement(tag);
            if (className) node.className = className;
            if (text !== undefined && text !== null) node.textContent = String(text);
            return node;
          }
          // Text from a journal: escaped as the CLI escapes it, in a <bdi> so that its direction
          // cannot reorder the text around it.
          function bdi(text, className) {
            const node = el("bdi", className);
            node.textContent = shown(text);
            return node;
          }
          const pad = (n, width) => String(n).padStart(width || 2, "0");
          // A time (seconds since 1970) as every time ActionLog shows one: ISO 8601 in UTC with
          // microseconds, 2026-11-24T10:32:05.123456Z.
          function isoTime(value) {
            if (value === null || value === undefined) return "";
            const micros = Math.round(Number(value) * 1e6);
            if (!Number.isFinite(micros)) return "";
            const millis = Math.floor(micros / 1000);
            const date = new Date(millis);
            if (Number.isNaN(date.getTime())) return "";
            const fraction = micros - Math.floor(micros / 1e6) * 1e6;
            return date.toISOString().slice(0, 19) + "." + pad(fraction, 6) + "Z";
          }
          function seconds(value) {
            if (value === null || value === undefined) return "";
            const v = Number(value);
            return (v >= 0 ? "+" : "") + (Math.abs(v) < 100 ? v.toFixed(3) : v.toFixed(1)) + "s";
          }
          function duration(ns) {
            if (ns === null || ns === undefined) return "";
            const v = Number(ns);
            if (v < 1e3) return v + "ns";
            if (v < 1e6) return (v / 1e3).toFixed(1) + "µs";
            if (v < 1e9) return (v / 1e6).toFixed(2) + "ms";
            return (v / 1e9).toFixed(3) + "s";
          }
          function span(total) {
            if (total === null || total === undefined) return "";
            const v = Number(total);
            if (v < 60) return v.toFixed(1) + "s";
            if (v < 3600) return Math.floor(v / 60) + "m" + Math.round(v % 60) + "s";
            return Math.floor(v / 3600) + "h" + Math.floor((v % 3600) / 60) + "m";
          }
          function showError(error) {
            const box = $("message");
            if (!error) { box.hidden = true; box.textContent = ""; return; }
            box.hidden = false;
            box.textContent = shown(error.message || String(error));
          }

          // ---- State ----
          const ui = {
            sessions: [], older: null, session: null, rows: [], filter: "", next: null, end: 0,
            selected: null, entryToken: 0, changedByToken: 0, windowToken: 0, loadingMore: false, polling: false, pollError: null,
            // Whether the window holds the last rows read of the session (new ones are appended to it),
            // and whether the selection follows the newest entry of a session still recording.
            atTail: false, follow: false,
            entry: null,       // the entry shown
            node: null,        // the state tree's selected node: its JSON Pointer
          };
          const isFiltered = () => ui.filter !== "";
          const windowFrom = () => (ui.rows.length ? ui.rows[0][0] : 0);
          const windowEnd = () => (ui.rows.length ? ui.rows[ui.rows.length - 1][0] + 1 : windowFrom());

          // ---- Sessions ----
          function renderSessions() {
            const list = $("sessions");
            list.textContent = "";
            for (const s of ui.sessions) {
              const item = el("li");
              item.dataset.session = String(s.id);
              if (ui.session && String(ui.session.id) === String(s.id)) item.classList.add("selected");
              fillSession(item, s);
              // In a failure report, switching between recorded and replayed keeps the entry, to compare them.
              // Elsewhere a session opens at its first entry, or at its newest while it is recording.
              item.addEventListener("click", () => openSession(String(s.id), data && data.message ? (ui.selected || 0) : null));
              list.appendChild(item);
            }
          }
          // The server lists the newest sessions; the button above them asks for those before.
          function showOlder(body) { ui.older = body.older || null; $("older").hidden = ui.older === null; }
          async function loadOlder() {
            try {
              const body = await source.sessions(ui.older);
              ui.sessions = body.sessions.concat(ui.sessions);
              showOlder(body);
              renderSessions();
            } catch (error) { showError(error); }
          }
          function fillSession(item, s) {
            item.textContent = "";
            item.appendChild(s.name === "" ? el("div", "name", "(unnamed)") : bdi(s.name, "name"));
            const meta = el("div", "meta");
            meta.appendChild(el("span", "status-" + s.status, s.status));
            meta.appendChild(document.createTextNode(" · " + s.entries + (Number(s.entries) === 1 ? " entry" : " entries")));
            if (s.duration !== null && s.duration !== undefined) meta.appendChild(document.createTextNode(" · " + span(s.duration)));
            if (Number(s.dropped) > 0) meta.appendChild(document.createTextNode(" · " + s.dropped + " lost"));
            meta.appendChild(document.createTextNode(" · #" + s.id));
            item.appendChild(meta);
            const when = el("div", "meta started");
            when.appendChild(document.createTextNode("started " + isoTime(s.startedAt)));
            if (s.appVersion !== null && s.appVersion !== undefined) {
              when.appendChild(document.createTextNode(" · app "));
              when.appendChild(bdi(s.appVersion, "app-version"));
            }
            item.appendChild(when);
            item.title = "state " + shown(s.stateType || "") + ", actions " + shown(s.actionType || "");
            const metadata = el("div", "meta metadata");
            if (s.metadataTooLarge) metadata.appendChild(document.createTextNode("metadata larger than 8 KiB, not shown"));
            else if (isContainer(s.metadata) && !Array.isArray(s.metadata)) {
              const keys = Object.keys(s.metadata);
              keys.slice(0, 8).forEach((key, index) => {
                const pair = el("span", "pair");
                pair.appendChild(bdi(key, "key"));
                pair.appendChild(document.createTextNode(": "));
                const value = s.metadata[key];
                const text = typeof value === "string" ? value : jsonText(value, false, 80).text;
                pair.appendChild(bdi(text.length > 80 ? text.slice(0, 80) + "…" : text, "value"));
                if (index > 0) metadata.appendChild(document.createTextNode(" · "));
                metadata.appendChild(pair);
              });
              if (keys.length > 8) metadata.appendChild(document.createTextNode(" · " + (keys.length - 8) + " more"));
            }
            if (metadata.firstChild) item.appendChild(metadata);
          }
          function updateSession(s) {
            if (!s) return;
            const index = ui.sessions.findIndex((x) => String(x.id) === String(s.id));
            if (index >= 0) ui.sessions[index] = s; else ui.sessions.push(s);
            if (ui.session && String(ui.session.id) === String(s.id)) ui.session = s;
            const item = document.querySelector('#sessions [data-session="' + CSS.escape(String(s.id)) + '"]');
            if (item) fillSession(item, s); else renderSessions();
            updateSlider();
          }
          function updateSlider() {
            updateLive();
            const slider = $("slider");
            const count = ui.session ? Math.max(0, Number(ui.session.entries)) : 0;
            slider.max = String(Math.max(0, count - 1));
            if (ui.selected !== null) slider.value = String(ui.selected);
            $("jump").max = String(Math.max(0, count - 1));
            const info = $("timeline-info");
            if (!ui.session) { info.textContent = ""; return; }
            info.textContent = isFiltered()
              ? ui.rows.length + " matching entries loaded" + (ui.next !== null ? " (scroll for more)" : "")
              : "entries " + windowFrom() + "–" + Math.max(windowFrom(), windowEnd() - 1) + " of " + count;
          }

        """#
}
