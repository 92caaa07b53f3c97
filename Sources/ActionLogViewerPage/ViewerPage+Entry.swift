extension ViewerPage {
    /// After ``scriptInterface``: the selected entry (its head, action, effect and service calls),
    /// its change with old and new values, and the comparison of two entries. A value is shown on
    /// its line when short, pretty-printed when longer, and folded behind a click when large.
    static let scriptEntry = #"""
          // ---- Values ----
          const INLINE_LIMIT = 80;      // characters of a value shown on its line
          const FOLD_LINES = 12;        // lines of a value shown before it folds
          const FOLD_CHARS = 2000;      // characters of a value shown before it folds
          const PRINT_LIMIT = 1 << 20;  // characters of a value printed at most (copy it for all of it)
          // JSON text, isolated from the text around it (its strings are escaped already).
          function isolated(text, className) {
            const node = el("bdi", className);
            node.textContent = text;
            return node;
          }
          function summary(value) {
            if (Array.isArray(value)) return "[" + value.length + (value.length === 1 ? " item]" : " items]");
            if (isContainer(value)) { const n = Object.keys(value).length; return "{" + n + (n === 1 ? " key}" : " keys}"); }
            if (typeof value === "string") return "a string of " + value.length + " characters: " + quote(value.slice(0, 40)) + "…";
            return scalarText(value).slice(0, 40) + "…";
          }
          function printed(value) {
            const text = jsonText(value, true, PRINT_LIMIT);
            const pre = el("pre", "json");
            pre.appendChild(isolated(text.truncated ? text.text + "…" : text.text));
            if (!text.truncated) return pre;
            const holder = el("div");
            holder.appendChild(pre);
            const note = el("div", "note", "Shortened at 1 MiB of text. ");
            const copy = el("button", "link", "Copy the whole value");
            copy.type = "button";
            copy.addEventListener("click", () => copyText(compactText(value), "the value"));
            note.appendChild(copy);
            holder.appendChild(note);
            return holder;
          }
          // A value: on its line when short, pretty-printed when longer, folded when large.
          function valueBlock(value) {
            const compact = jsonText(value, false, INLINE_LIMIT);
            if (!compact.truncated && compact.text.length <= INLINE_LIMIT) return isolated(compact.text, "value inline");
            const pretty = jsonText(value, true, FOLD_CHARS);
            if (!pretty.truncated && pretty.text.split("\n").length <= FOLD_LINES) return printed(value);
            const holder = el("div", "value folded");
            const toggle = el("button", "fold", "▸ " + summary(value) + " (click to expand)");
            toggle.type = "button";
            toggle.setAttribute("aria-expanded", "false");
            let shownValue = null;
            toggle.addEventListener("click", () => {
              const open = holder.classList.toggle("folded");
              toggle.setAttribute("aria-expanded", String(!open));
              toggle.textContent = (open ? "▸ " : "▾ ") + summary(value) + (open ? " (click to expand)" : " (click to fold)");
              if (!open && !shownValue) { shownValue = printed(value); holder.appendChild(shownValue); }
              if (shownValue) shownValue.hidden = open;
            });
            holder.appendChild(toggle);
            return holder;
          }
          // One side of a change: "−" and the value before, or "+" and the value after.
          function side(sign, className, value, absent) {
            const line = el("div", "side " + className);
            line.appendChild(el("span", "sign", sign));
            line.appendChild(absent ? el("span", "absent", "(absent)") : valueBlock(value));
            return line;
          }
          const own = (object, key) => Object.prototype.hasOwnProperty.call(object, key);
          function pathElement(path) {
            return path === "" ? el("span", "path", "(root)") : bdi(path, "path");
          }

          // ---- The entry ----
          function clearEntry(text) {
            for (const id of ["state", "diff", "action", "effect", "handler", "entry-head"]) $(id).textContent = "";
            delete $("state").dataset.seq;
            ui.entry = null;
            $("state").appendChild(el("div", "empty", text));
            showNodeContext();
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
            ui.entry = entry;
            const head = $("entry-head");
            head.textContent = "";
            head.appendChild(el("strong", null, "#" + entry.seq + " "));
            // Where gaps dropped actions, the action's number runs ahead of the entry's.
            if (entry.actionNumber !== undefined && entry.actionNumber !== null && Number(entry.actionNumber) !== Number(entry.seq)) {
              head.appendChild(el("span", "action-number", "(action " + entry.actionNumber + ") "));
            }
            if (entry.kind === "gap") {
              head.appendChild(document.createTextNode("gap: " + entry.dropped + " actions lost"));
              if (entry.note) { head.appendChild(document.createTextNode(" (")); head.appendChild(bdi(entry.note)); head.appendChild(document.createTextNode(")")); }
            } else if (entry.label === null || entry.label === undefined) head.appendChild(document.createTextNode("initial state"));
            else head.appendChild(bdi(entry.label, "label"));
            head.appendChild(document.createTextNode("  " + seconds(entry.offset) + (entry.reducerNanoseconds !== null ? "  reducer " + duration(entry.reducerNanoseconds) : "") + "  (" + entry.kind + ")"));
            for (const key of ["action", "effect", "handler"]) {
              const box = $(key);
              box.textContent = "";
              const value = entry[key] === undefined ? null : entry[key];
              if (key === "handler" && value === null) box.textContent = "—";
              else box.appendChild(printed(value));
            }
            const changed = renderChange(entry);
            renderState(entry, changed);
          }
          // The change from the previous entry: each operation with the value it replaced or
          // removed (−) and the value it set (+). Returns the paths it changed.
          function renderChange(entry) {
            const diff = $("diff");
            diff.textContent = "";
            const changed = [];
            for (const op of entry.change || []) {
              const item = el("li", "change");
              item.dataset.op = op.op;
              const line = el("div", "change-head");
              line.appendChild(el("span", "op op-" + op.op, op.op));
              line.appendChild(pathElement(op.path));
              if (op.from !== undefined) { line.appendChild(el("span", "from", "from")); line.appendChild(pathElement(op.from)); }
              item.appendChild(line);
              if (own(op, "old")) item.appendChild(side("−", "old", op.old));
              else if (op.oldOmitted) item.appendChild(el("div", "note", "− (the value before is not sent: this change's old values pass 4 MiB)"));
              if (own(op, "value")) item.appendChild(side(op.op === "test" ? "=" : "+", "new", op.value));
              diff.appendChild(item);
              changed.push(op.path);
              if (op.op === "move" && op.from !== undefined) changed.push(op.from);
            }
            if (!diff.firstChild) {
              const why = { initial: "The initial state.", none: entry.kind === "gap" ? "No state: actions were lost here." : "Unknown: the previous state was not recorded." }[entry.changeSource];
              diff.appendChild(el("li", "empty", why || "No change."));
            }
            return changed;
          }

          // ---- Comparing two entries ----
          let compareToken = 0;
          const COMPARE_SHOWN = 1000;   // differences listed at most
          async function compareEntries(from, to) {
            if (!ui.session) return;
            const token = ++compareToken;
            $("compare-from").value = String(from);
            $("compare-to").value = String(to);
            const pane = $("compare-result");
            pane.hidden = false;
            $("compare-list").textContent = "";
            $("compare-title").textContent = "Comparing entry " + from + " with entry " + to + "…";
            let body;
            try { body = await source.compare(String(ui.session.id), from, to); }
            catch (error) {
              if (token !== compareToken) return;
              $("compare-title").textContent = "Entry " + from + " → entry " + to + ": cannot compare";
              showError(error);
              return;
            }
            if (token !== compareToken) return;
            const found = body.differences;
            $("compare-title").textContent = "Entry " + from + " → entry " + to + ": " +
              (found.length === 0 ? "no difference" : found.length + (found.length === 1 ? " difference" : " differences")) +
              (found.length > COMPARE_SHOWN ? " (the first " + COMPARE_SHOWN + " listed)" : "");
            const list = $("compare-list");
            for (const difference of found.slice(0, COMPARE_SHOWN)) {
              const item = el("li", "change");
              const line = el("div", "change-head");
              line.appendChild(pathElement(difference.path));
              item.appendChild(line);
              item.appendChild(side("−", "old", difference.from, !own(difference, "from")));
              item.appendChild(side("+", "new", difference.to, !own(difference, "to")));
              list.appendChild(item);
            }
            pane.dataset.from = String(from);
            pane.dataset.to = String(to);
          }
          $("compare-form").addEventListener("submit", (event) => {
            event.preventDefault();
            // An empty box stands for the selected entry.
            const read = (id) => { const n = parseInt($(id).value, 10); return Number.isNaN(n) ? ui.selected : n; };
            const from = read("compare-from"), to = read("compare-to");
            if (from === null || to === null) return;
            compareEntries(from, to);
          });
          $("compare-close").addEventListener("click", () => {
            compareToken++;
            $("compare-result").hidden = true;
            $("compare-list").textContent = "";
          });

        """#
}
