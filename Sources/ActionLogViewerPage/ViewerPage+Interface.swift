extension ViewerPage {
    /// The rest of the page's script after ``scriptSessions``: the paged timeline, the entry, the
    /// state tree, the controls, live following, and the start.
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
            let text = label;
            if (kind === "gap") text = "(gap: " + dropped + " lost)";
            else if (label === null || label === undefined) text = "(initial state)";
            item.appendChild(el("span", "label", text));
            item.appendChild(el("span", "duration", duration(ns)));
            if (ui.selected === seq) item.classList.add("selected");
            item.addEventListener("click", () => select(seq));
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
              while (ui.rows.length > MAX_ROWS && timeline.lastElementChild) { timeline.lastElementChild.remove(); ui.rows.pop(); }
              updateSession(body.session);
            });
          }
          $("timeline").addEventListener("scroll", () => {
            const t = $("timeline");
            if (t.scrollTop + t.clientHeight >= t.scrollHeight - 44) loadLater().catch(showError);
            else if (t.scrollTop <= 22) loadEarlier().catch(showError);
          });

          // ---- Selection ----
          async function openSession(id, seq) {
            const session = ui.sessions.find((s) => String(s.id) === String(id));
            if (!session) { showError(new Error("No session " + JSON.stringify(String(id)) + " in this journal.")); return; }
            ui.session = session;
            ui.rows = [];
            ui.selected = null;
            for (const item of document.querySelectorAll("#sessions li")) item.classList.toggle("selected", item.dataset.session === String(id));
            try {
              await loadWindowAround(seq);
              await select(seq);
            } catch (error) { showError(error); }
          }
          async function select(seq) {
            if (!ui.session) return;
            const count = Number(ui.session.entries);
            if (!(count > 0)) { clearEntry("This session has no entries."); return; }
            seq = Math.max(0, Math.min(count - 1, Math.floor(Number(seq) || 0)));
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
            if (target >= 0 && target < ui.rows.length) await select(ui.rows[target][0]);
          }

          // ---- The entry ----
          function clearEntry(text) {
            for (const id of ["state", "diff", "action", "effect", "handler", "entry-head"]) $(id).textContent = "";
            delete $("state").dataset.seq;
            $("state").appendChild(el("div", "empty", text));
          }
          async function showEntry(seq) {
            const token = ++ui.entryToken;
            const id = String(ui.session.id);
            let entry;
            try { entry = await source.entry(id, seq); }
            catch (error) {
              if (token !== ui.entryToken) return;
              clearEntry("The entry cannot be shown.");
              showError(error);
              return;
            }
            if (token !== ui.entryToken) return;
            showError(null);
            renderEntry(entry);
          }
          function renderEntry(entry) {
            const head = $("entry-head");
            head.textContent = "";
            head.appendChild(el("strong", null, "#" + entry.seq + " "));
            let title = entry.label;
            if (entry.kind === "gap") title = "gap: " + entry.dropped + " actions lost" + (entry.note ? " (" + entry.note + ")" : "");
            else if (title === null || title === undefined) title = "initial state";
            head.appendChild(document.createTextNode(title + "  " + seconds(entry.offset) + (entry.reducerNanoseconds !== null ? "  reducer " + duration(entry.reducerNanoseconds) : "") + "  (" + entry.kind + ")"));
            for (const key of ["action", "effect"]) $(key).textContent = JSON.stringify(entry[key] === undefined ? null : entry[key], null, 2);
            $("handler").textContent = entry.handler === null || entry.handler === undefined ? "—" : JSON.stringify(entry.handler, null, 2);
            const diff = $("diff");
            diff.textContent = "";
            const changed = [];
            for (const op of entry.change || []) {
              const item = el("li");
              item.appendChild(el("span", "op op-" + op.op, op.op));
              item.appendChild(el("span", "path", op.path === "" ? "(root)" : op.path));
              if (op.from !== undefined) item.appendChild(el("span", "value", "from " + op.from));
              if (op.value !== undefined) item.appendChild(el("span", "value", JSON.stringify(op.value)));
              diff.appendChild(item);
              changed.push(op.path);
              if (op.op === "move" && op.from !== undefined) changed.push(op.from);
            }
            if (!diff.firstChild) {
              const why = { initial: "The initial state.", none: entry.kind === "gap" ? "No state: actions were lost here." : "Unknown: the previous state was not recorded." }[entry.changeSource];
              diff.appendChild(el("li", "empty", why || "No change."));
            }
            const state = $("state");
            state.textContent = "";
            state.appendChild(entry.kind === "gap" ? el("div", "empty", "No state was recorded at a gap.") : renderTree(entry.state, changed));
            state.dataset.seq = String(entry.seq);
          }

          // ---- The state tree (built with an explicit stack, drawn lazily past a budget) ----
          function isContainer(value) { return value !== null && typeof value === "object"; }
          function renderTree(value, changedPaths) {
            const changed = new Set(changedPaths);
            const onPath = new Set();
            for (const path of changedPaths) {
              const list = path === "" ? [] : path.slice(1).split("/");
              let prefix = "";
              onPath.add("");
              for (const token of list) { prefix += "/" + token; onPath.add(prefix); }
            }
            const isChanged = (path) => {
              for (const c of changed) if (path === c || (c === "" ) || path.startsWith(c + "/")) return true;
              return false;
            };
            let budget = TREE_BUDGET;
            const rootHolder = el("div");
            const stack = [{ key: null, value: value, path: "", parent: rootHolder, depth: 0 }];
            while (stack.length) {
              const item = stack.pop();
              const node = makeNode(item.key, item.value, item.path);
              item.parent.appendChild(node);
              budget--;
              if (changedPaths.length && isChanged(item.path)) node.classList.add("changed");
              else if (onPath.has(item.path) && changedPaths.length) node.classList.add("has-change");
              if (!isContainer(item.value)) continue;
              const children = node.querySelector(".children");
              const wanted = onPath.has(item.path) || (budget > 0 && item.depth < 64);
              if (!wanted) { node.classList.add("collapsed"); lazy.set(node, { value: item.value, path: item.path, changedPaths: changedPaths }); continue; }
              const keys = Array.isArray(item.value) ? item.value.map((_, i) => i) : Object.keys(item.value).sort();
              for (let i = keys.length - 1; i >= 0; i--) {
                const key = keys[i];
                stack.push({ key: key, value: item.value[key], path: item.path + "/" + escapeToken(key), parent: children, depth: item.depth + 1 });
              }
            }
            return rootHolder.firstChild;
          }
          const lazy = new WeakMap();
          function makeNode(key, value, path) {
            const node = el("div", "node");
            node.dataset.path = path;
            const line = el("div", "line");
            node.appendChild(line);
            if (isContainer(value)) {
              node.classList.add("container");
              line.appendChild(el("span", "toggle"));
            }
            if (key !== null) line.appendChild(el("span", "key", (typeof key === "number" ? key : JSON.stringify(key)) + ": "));
            if (Array.isArray(value)) line.appendChild(el("span", "summary", "[" + value.length + (value.length === 1 ? " item]" : " items]")));
            else if (isContainer(value)) { const n = Object.keys(value).length; line.appendChild(el("span", "summary", "{" + n + (n === 1 ? " key}" : " keys}"))); }
            else line.appendChild(el("span", value === null ? "null" : "value", value === null ? "null" : JSON.stringify(value)));
            if (isContainer(value)) {
              node.appendChild(el("div", "children"));
              line.addEventListener("click", (event) => {
                event.stopPropagation();
                const pending = lazy.get(node);
                if (pending) {
                  lazy.delete(node);
                  const fresh = renderTree(pending.value, pending.changedPaths.filter((p) => p.startsWith(pending.path)).map((p) => p.slice(pending.path.length)));
                  // Re-key the fresh subtree's paths under this node.
                  for (const child of fresh.querySelectorAll("[data-path]")) child.dataset.path = pending.path + child.dataset.path;
                  const holder = node.querySelector(".children");
                  for (const child of Array.from(fresh.querySelector(".children").childNodes)) holder.appendChild(child);
                  node.classList.remove("collapsed");
                  return;
                }
                node.classList.toggle("collapsed");
              });
            }
            return node;
          }

          // ---- Controls ----
          let filterTimer = null;
          $("filter").addEventListener("input", () => {
            clearTimeout(filterTimer);
            filterTimer = setTimeout(async () => {
              ui.filter = $("filter").value;
              if (!ui.session) return;
              try { await loadWindowAround(ui.selected || 0); markSelected(true); } catch (error) { showError(error); }
            }, 120);
          });
          $("jump").addEventListener("keydown", (event) => {
            if (event.key !== "Enter") return;
            event.preventDefault();
            const value = parseInt($("jump").value, 10);
            if (!Number.isNaN(value)) select(value);
          });
          let sliderFrame = 0;
          $("slider").addEventListener("input", () => {
            cancelAnimationFrame(sliderFrame);
            sliderFrame = requestAnimationFrame(() => select(Number($("slider").value)));
          });
          document.addEventListener("keydown", (event) => {
            const target = event.target;
            if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.isContentEditable)) return;
            if (event.metaKey || event.ctrlKey || event.altKey) return;
            if (event.key === "ArrowDown" || event.key === "j") { event.preventDefault(); step(1); }
            else if (event.key === "ArrowUp" || event.key === "k") { event.preventDefault(); step(-1); }
          });
          function fromHash() {
            const params = new URLSearchParams(location.hash.slice(1));
            const session = params.get("session");
            const seq = params.get("seq");
            return { session: session, seq: seq === null ? null : Number(seq) };
          }
          window.addEventListener("hashchange", () => {
            const wanted = fromHash();
            if (wanted.session === null) return;
            if (!ui.session || String(ui.session.id) !== wanted.session) openSession(wanted.session, wanted.seq || 0);
            else if (wanted.seq !== null && wanted.seq !== ui.selected) select(wanted.seq);
          });

          // ---- Following a recording session ----
          async function poll() {
            if (ui.polling || !source.live || !ui.session || ui.session.status !== "recording") return;
            ui.polling = true;
            const id = String(ui.session.id);
            const token = ui.windowToken;
            try {
              const atTail = isFiltered() ? ui.next === null : windowEnd() >= Number(ui.session.entries);
              const from = isFiltered() ? (ui.next !== null ? ui.next : ui.end) : windowEnd();
              const body = await source.timeline(id, from, atTail ? WINDOW : 0, ui.filter);
              if (token !== ui.windowToken || !ui.session || String(ui.session.id) !== id) return;
              if (atTail) appendRows(body); else updateSession(body.session);
            } catch (error) { showError(error); }
            finally { ui.polling = false; }
          }
          async function refreshSessions() {
            if (!source.live) return;
            try {
              const body = await source.sessions();
              // The newest sessions: a new one is added after those listed, a known one updated.
              for (const s of body.sessions) {
                const old = ui.sessions.find((x) => String(x.id) === String(s.id));
                if (!old || old.status !== s.status || old.entries !== s.entries) updateSession(s);
              }
            } catch (error) { /* the next refresh tries again */ }
          }

          // ---- Start ----
          async function start() {
            try {
              const body = await source.sessions();
              ui.sessions = body.sessions;
              showOlder(body);
              $("older").addEventListener("click", loadOlder);
              $("file").textContent = body.file || "";
              document.title = (body.file ? body.file + " — " : "") + "ActionLog viewer";
              if (data && data.message) { const m = $("report-message"); m.hidden = false; m.textContent = data.message; }
              renderSessions();
              document.body.dataset.loaded = "true";
              const wanted = fromHash();
              const fallback = data && data.open ? data.open : (ui.sessions.length ? { session: String(ui.sessions[ui.sessions.length - 1].id), seq: 0 } : null);
              const target = wanted.session !== null ? { session: wanted.session, seq: wanted.seq || 0 } : fallback;
              if (target) await openSession(String(target.session), Number(target.seq) || 0);
            } catch (error) {
              showError(error);
              document.body.dataset.loaded = "true";
            }
            if (source.live) {
              setInterval(poll, POLL_MS);
              setInterval(refreshSessions, 2000);
            }
          }
          start();
        })();

        """#
}
