extension ViewerPage {
    /// After ``scriptSessions``: the paged timeline and the selection of an entry.
    static let scriptInterface = #"""
          // ---- Timeline ----
          function rowElement(row) {
            const [seq, offset, label, kind, ns, dropped] = row;
            const item = el("div", "row");
            item.dataset.seq = String(seq);
            item.dataset.kind = kind;
            item.setAttribute("role", "option");
            item.appendChild(el("span", "seq", seq));
            item.appendChild(el("span", "offset", seconds(offset)));
            if (kind === "gap") item.appendChild(el("span", "label", "(gap: " + dropped + " lost)"));
            else if (label === null || label === undefined) item.appendChild(el("span", "label", "(initial state)"));
            else { const text = el("span", "label"); text.appendChild(bdi(label)); item.appendChild(text); }
            item.appendChild(el("span", "duration", duration(ns)));
            if (ui.selected === seq) item.classList.add("selected");
            // Shift+click compares the selected entry with this one.
            item.addEventListener("click", (event) => {
              if (event.shiftKey && ui.selected !== null && ui.selected !== seq) compareEntries(ui.selected, seq);
              else select(seq);
            });
            return item;
          }
          function renderRows() {
            const timeline = $("timeline");
            timeline.textContent = "";
            const fragment = document.createDocumentFragment();
            for (const row of ui.rows) fragment.appendChild(rowElement(row));
            timeline.appendChild(fragment);
            if (ui.rows.length === 0) timeline.appendChild(el("div", "more", emptyText()));
            updateSlider();
            readOnSoon();
          }
          function emptyText() {
            if (!isFiltered()) return "No entries.";
            return ui.next !== null ? "No match yet; reading on from entry " + ui.next + "…" : "No entry matches.";
          }
          // A filtered window stops at 50,000 entries or about a second of reading: when its rows do
          // not fill the timeline (no scroll can ask for more), the next window is asked for after a
          // pause, one at a time, until they do or the session ends.
          let readOnTimer = null;
          function readOnSoon() {
            clearTimeout(readOnTimer);
            if (!isFiltered() || ui.next === null || !ui.session) return;
            const t = $("timeline");
            if (t.scrollHeight > t.clientHeight + 44) return;
            readOnTimer = setTimeout(() => { loadLater().catch(showError); }, READ_ON_MS);
          }
          function markSelected(scroll) {
            const timeline = $("timeline");
            for (const old of timeline.querySelectorAll(".row.selected")) old.classList.remove("selected");
            const row = timeline.querySelector('.row[data-seq="' + ui.selected + '"]');
            if (row) {
              row.classList.add("selected");
              if (scroll) row.scrollIntoView({ block: "nearest" });
            }
          }
          async function loadWindowAround(seq) {
            const token = ++ui.windowToken;
            const id = String(ui.session.id);
            const body = await source.timeline(id, isFiltered() ? 0 : Math.max(0, seq - WINDOW / 2), WINDOW, ui.filter);
            if (token !== ui.windowToken || !ui.session || String(ui.session.id) !== id) return false;
            ui.rows = body.rows;
            ui.next = body.next;
            ui.end = body.end !== undefined ? body.end : windowEnd();
            ui.atTail = body.next === null;
            updateSession(body.session);
            renderRows();
            return true;
          }
          // Reads rows beside the window, one read at a time: `use` takes them unless the window changed meanwhile.
          async function loadMore(from, limit, use) {
            ui.loadingMore = true;
            const token = ui.windowToken;
            try {
              const body = await source.timeline(String(ui.session.id), from, limit, ui.filter);
              if (token === ui.windowToken) use(body);
            } finally { ui.loadingMore = false; }
          }
          async function loadLater() {
            if (ui.loadingMore || !ui.session) return;
            const from = isFiltered() ? ui.next : windowEnd();
            if (from === null || (!isFiltered() && from >= Number(ui.session.entries))) return;
            await loadMore(from, WINDOW, appendRows);
          }
          function appendRows(body) {
            const timeline = $("timeline");
            const placeholder = timeline.querySelector(".more");
            if (placeholder && body.rows.length) placeholder.remove();
            const last = ui.rows.length ? ui.rows[ui.rows.length - 1][0] : -1;
            const fresh = body.rows.filter((r) => r[0] > last);
            for (const row of fresh) { ui.rows.push(row); timeline.appendChild(rowElement(row)); }
            ui.next = body.next;
            if (body.end !== undefined) ui.end = body.end;
            ui.atTail = body.next === null;
            if (placeholder && !body.rows.length) placeholder.textContent = ui.rows.length ? "" : emptyText();
            // Keep the document small: drop rows far above.
            while (ui.rows.length > MAX_ROWS && timeline.firstElementChild) {
              const height = timeline.firstElementChild.offsetHeight;
              timeline.firstElementChild.remove();
              ui.rows.shift();
              timeline.scrollTop -= height;
            }
            updateSession(body.session);
            readOnSoon();
          }
          async function loadEarlier() {
            if (ui.loadingMore || !ui.session || isFiltered() || windowFrom() === 0) return;
            const end = windowFrom();
            const from = Math.max(0, end - WINDOW);
            await loadMore(from, end - from, (body) => {
              const timeline = $("timeline");
              const rows = body.rows.filter((r) => r[0] < end);
              const before = timeline.scrollHeight;
              const fragment = document.createDocumentFragment();
              for (const row of rows) fragment.appendChild(rowElement(row));
              timeline.insertBefore(fragment, timeline.firstChild);
              ui.rows = rows.concat(ui.rows);
              timeline.scrollTop += timeline.scrollHeight - before;
              while (ui.rows.length > MAX_ROWS && timeline.lastElementChild) {
                timeline.lastElementChild.remove();
                ui.rows.pop();
                // The rows read last are gone: new entries no longer join this window.
                ui.atTail = false;
                ui.end = windowEnd();
              }
              updateSession(body.session);
            });
          }
          $("timeline").addEventListener("scroll", () => {
            const t = $("timeline");
            if (t.scrollTop + t.clientHeight >= t.scrollHeight - 44) loadLater().catch(showError);
            else if (t.scrollTop <= 22) loadEarlier().catch(showError);
          });

          // ---- Selection ----
          const newest = () => Math.max(0, Number(ui.session.entries) - 1);
          // Opens a session at `seq`; without one, at its first entry, or, while it is recording, at
          // its newest, following it.
          async function openSession(id, seq) {
            const session = ui.sessions.find((s) => String(s.id) === String(id));
            if (!session) { showError(new Error("No session " + JSON.stringify(String(id)) + " in this journal.")); return; }
            ui.session = session;
            ui.rows = [];
            ui.selected = null;
            ui.atTail = false;
            ui.follow = (seq === null || seq === undefined) && source.live && session.status === "recording";
            for (const item of document.querySelectorAll("#sessions li")) item.classList.toggle("selected", item.dataset.session === String(id));
            try {
              await loadWindowAround(ui.follow ? newest() : Number(seq) || 0);
              await select(ui.follow ? newest() : Number(seq) || 0, true);
            } catch (error) { showError(error); }
          }
          // Selects entry `seq`. A user's choice of another entry than the newest pauses following
          // (`auto` is for the page's own moves).
          async function select(seq, auto) {
            if (!ui.session) return;
            const count = Number(ui.session.entries);
            if (!(count > 0)) { clearEntry("This session has no entries."); return; }
            seq = Math.max(0, Math.min(count - 1, Math.floor(Number(seq) || 0)));
            if (!auto && ui.follow && seq !== newest()) setFollow(false);
            ui.selected = seq;
            history.replaceState(null, "", "#session=" + encodeURIComponent(String(ui.session.id)) + "&seq=" + seq);
            $("slider").value = String(seq);
            if (!isFiltered() && (seq < windowFrom() || seq >= windowEnd())) {
              try { await loadWindowAround(seq); } catch (error) { showError(error); }
            }
            markSelected(true);
            await showEntry(seq);
          }
          async function step(delta) {
            if (!ui.session || ui.selected === null) return;
            if (!isFiltered()) { await select(ui.selected + delta); return; }
            let index = ui.rows.findIndex((r) => r[0] === ui.selected);
            if (index < 0) index = delta > 0 ? ui.rows.findIndex((r) => r[0] > ui.selected) - 1 : ui.rows.findIndex((r) => r[0] >= ui.selected);
            let target = index + delta;
            if (target >= ui.rows.length && ui.next !== null) { await loadLater(); index = ui.rows.findIndex((r) => r[0] === ui.selected); target = index + delta; }
            target = Math.max(0, Math.min(ui.rows.length - 1, target));
            if (target >= 0 && target < ui.rows.length && ui.rows[target][0] !== ui.selected) await select(ui.rows[target][0]);
          }
          // Home and End: the first entry and the newest (which resumes following a recording
          // session); in a filtered view, the first match and the last one loaded.
          async function selectFirst() {
            if (!ui.session) return;
            if (!isFiltered()) { await select(0); return; }
            // A filtered window reads from entry 0: read again, since rows above may have been dropped.
            await loadWindowAround(0);
            if (ui.rows.length) await select(ui.rows[0][0]);
          }
          async function selectLast() {
            if (!ui.session) return;
            if (source.live && ui.session.status === "recording") { await jumpToLatest(); return; }
            if (!isFiltered()) { await select(newest()); return; }
            if (ui.rows.length) await select(ui.rows[ui.rows.length - 1][0]);
          }

        """#
}
