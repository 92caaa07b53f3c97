extension ViewerPage {
    /// After ``scriptEntry``: the state tree (drawn with an explicit stack, lazily past a budget,
    /// ``CHILD_PAGE`` members at a time), its search by path or value, expand and collapse all, the
    /// selected node with its context (path, copy buttons, and room for more about the node), and
    /// copying to the clipboard.
    static let scriptTree = #"""
          // ---- The state tree ----
          const treeData = new WeakMap();      // node → { value, path, keys, count, drawn }
          let treeNodes = new Map();           // path → node, for the nodes drawn
          let treeMarks = { changed: new Set(), onPath: new Set() };
          // "changed" when the path or one of its ancestors changed; "has-change" above a change.
          function markOf(path) {
            if (!treeMarks.changed.size) return null;
            for (let p = path; ; p = p.slice(0, p.lastIndexOf("/"))) {
              if (treeMarks.changed.has(p)) return "changed";
              if (p === "") break;
            }
            return treeMarks.onPath.has(path) ? "has-change" : null;
          }
          function keysOf(data) {
            if (!data.keys) data.keys = Array.isArray(data.value) ? null : Object.keys(data.value).sort(byCodePoint);
            return data.keys;
          }
          function makeNode(key, value, path) {
            const node = el("div", "node");
            node.dataset.path = path;
            const line = el("div", "line");
            node.appendChild(line);
            const container = isContainer(value);
            if (container) { node.classList.add("container", "collapsed"); line.appendChild(el("span", "toggle")); }
            if (key !== null) {
              const name = el("span", "key");
              if (typeof key === "number") name.textContent = key;
              else name.appendChild(isolated(quote(key)));
              name.appendChild(document.createTextNode(": "));
              line.appendChild(name);
            }
            if (container) line.appendChild(el("span", "summary", summary(value)));
            else line.appendChild(isolated(scalarText(value), value === null ? "null" : "value"));
            const mark = markOf(path);
            if (mark) node.classList.add(mark);
            if (ui.search.set.has(path)) node.classList.add("match");
            if (ui.node === path) node.classList.add("current");
            if (container) {
              node.appendChild(el("div", "children"));
              const count = Array.isArray(value) ? value.length : Object.keys(value).length;
              treeData.set(node, { value: value, path: path, keys: null, count: count, drawn: 0 });
            }
            line.addEventListener("click", (event) => {
              event.stopPropagation();
              setNode(path);
              if (container) toggleNode(node);
            });
            treeNodes.set(path, node);
            return node;
          }
          // Draws the members of a container node after those drawn, CHILD_PAGE at a time or up to
          // `upTo`; a line after them draws the next page. Returns the nodes drawn.
          function drawChildren(node, upTo) {
            const data = treeData.get(node);
            const holder = node.querySelector(":scope > .children");
            const more = holder.querySelector(":scope > .more");
            const end = Math.min(data.count, Math.max(upTo || 0, data.drawn + CHILD_PAGE));
            const keys = keysOf(data);
            const fragment = document.createDocumentFragment();
            const drawn = [];
            for (let i = data.drawn; i < end; i++) {
              const key = keys ? keys[i] : i;
              const child = makeNode(key, data.value[key], data.path + "/" + escapeToken(key));
              fragment.appendChild(child);
              drawn.push(child);
            }
            data.drawn = end;
            holder.insertBefore(fragment, more);
            if (end < data.count) {
              const line = more || el("div", "more");
              line.textContent = "… " + (data.count - end) + " more of " + data.count + " (click to show " + Math.min(CHILD_PAGE, data.count - end) + " more)";
              if (!more) { line.addEventListener("click", (event) => { event.stopPropagation(); drawChildren(node); }); holder.appendChild(line); }
            } else if (more) more.remove();
            return drawn;
          }
          const childNodes = (node) => Array.from(node.querySelector(":scope > .children").children).filter((c) => c.classList.contains("node"));
          // Opens containers from `start` down, depth first, while `wanted` says so; `budget` counts
          // the nodes drawn. Returns the budget left.
          function drawFrom(start, budget, wanted) {
            const stack = [{ node: start, depth: 0 }];
            while (stack.length) {
              const { node, depth } = stack.pop();
              const data = treeData.get(node);
              if (!data) continue;
              if (node !== start && !wanted(data, depth, budget)) continue;
              node.classList.remove("collapsed");
              let children;
              if (data.drawn === 0) { children = drawChildren(node); budget -= children.length; }
              else children = childNodes(node);
              for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i], depth: depth + 1 });
            }
            return budget;
          }
          const usualDrawing = (data, depth, budget) => treeMarks.onPath.has(data.path) || (budget > 0 && depth < 64);
          function toggleNode(node) {
            if (!node.classList.contains("collapsed")) { node.classList.add("collapsed"); return; }
            if (treeData.get(node).drawn === 0) drawFrom(node, TREE_BUDGET, usualDrawing);
            node.classList.remove("collapsed");
          }
          function renderState(entry, changedPaths) {
            const state = $("state");
            state.textContent = "";
            treeNodes = new Map();
            treeMarks = { changed: new Set(changedPaths), onPath: new Set() };
            for (const path of changedPaths) {
              let prefix = "";
              treeMarks.onPath.add("");
              for (const token of path === "" ? [] : path.slice(1).split("/")) { prefix += "/" + token; treeMarks.onPath.add(prefix); }
            }
            $("tree-note").textContent = "";
            if (entry.kind === "gap") state.appendChild(el("div", "empty", "No state was recorded at a gap."));
            else {
              // Matches of the search box, in the new state.
              findMatches($("tree-search").value, false);
              const root = makeNode(null, entry.state, "");
              state.appendChild(root);
              drawFrom(root, TREE_BUDGET, usualDrawing);
            }
            state.dataset.seq = String(entry.seq);
            showNodeContext();
          }
          // Draws the nodes down to `path` (opening its ancestors, and the page of members that
          // holds it); returns its node, or null when the state has no such path.
          function reveal(path) {
            let node = treeNodes.get("");
            if (!node) return null;
            let prefix = "";
            for (const token of tokens(path)) {
              const data = treeData.get(node);
              if (!data) return null;
              if (node.classList.contains("collapsed")) { if (data.drawn === 0) drawChildren(node); node.classList.remove("collapsed"); }
              prefix += "/" + escapeToken(token);
              let child = treeNodes.get(prefix);
              if (!child) {
                const index = Array.isArray(data.value) ? (/^(0|[1-9][0-9]*)$/.test(token) ? Number(token) : -1) : keysOf(data).indexOf(token);
                if (index < 0 || index >= data.count) return null;
                drawChildren(node, index + 1);
                child = treeNodes.get(prefix);
                if (!child) return null;
              }
              node = child;
            }
            return node;
          }
          $("expand-all").addEventListener("click", () => {
            const root = treeNodes.get("");
            if (!root) return;
            const left = drawFrom(root, EXPAND_BUDGET, (data, depth, budget) => budget > 0);
            for (const node of treeNodes.values()) if (treeData.get(node) && treeData.get(node).drawn > 0) node.classList.remove("collapsed");
            $("tree-note").textContent = left > 0 ? "" : "Opened as far as " + EXPAND_BUDGET + " nodes drawn; click a folded node to open more.";
          });
          $("collapse-all").addEventListener("click", () => {
            for (const [path, node] of treeNodes) if (path !== "" && treeData.get(node)) node.classList.add("collapsed");
            $("tree-note").textContent = "";
          });

          // ---- Searching the state by path or value ----
          // Case-insensitive: a node matches when its JSON Pointer, its key or (for a scalar) its
          // value contains the text. The first MATCH_LIMIT are kept, in the tree's order.
          ui.search = { query: "", matches: [], total: 0, index: -1, set: new Set() };
          function findMatches(query, go) {
            const q = query.toLowerCase();
            const search = { query: query, matches: [], total: 0, index: -1, set: new Set() };
            ui.search = search;
            const state = ui.entry && ui.entry.kind !== "gap" ? ui.entry.state : undefined;
            if (q !== "" && state !== undefined) {
              const stack = [{ value: state, path: "", key: null }];
              while (stack.length) {
                const { value, path, key } = stack.pop();
                let hit = path.toLowerCase().includes(q) || (key !== null && String(key).toLowerCase().includes(q));
                if (!hit && !isContainer(value)) hit = (typeof value === "string" ? value : scalarText(value)).toLowerCase().includes(q);
                if (hit) { search.total++; if (search.matches.length < MATCH_LIMIT) search.matches.push(path); }
                if (!isContainer(value)) continue;
                const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value).sort(byCodePoint);
                for (let i = keys.length - 1; i >= 0; i--) stack.push({ value: value[keys[i]], path: path + "/" + escapeToken(keys[i]), key: keys[i] });
              }
              search.set = new Set(search.matches);
            }
            for (const [path, node] of treeNodes) { node.classList.toggle("match", search.set.has(path)); node.classList.remove("match-current"); }
            showMatchInfo();
            if (go && search.matches.length) goToMatch(0);
          }
          function goToMatch(index) {
            const search = ui.search;
            if (!search.matches.length) return;
            search.index = (index + search.matches.length) % search.matches.length;
            for (const old of $("state").querySelectorAll(".match-current")) old.classList.remove("match-current");
            const path = search.matches[search.index];
            const node = reveal(path);
            if (node) {
              node.classList.add("match", "match-current");
              node.querySelector(":scope > .line").scrollIntoView({ block: "nearest" });
            }
            setNode(path);
            showMatchInfo();
          }
          function showMatchInfo() {
            const search = ui.search;
            const info = $("tree-search-info");
            if (search.query === "") info.textContent = "";
            else if (!search.total) info.textContent = "no match";
            else info.textContent = (search.index >= 0 ? search.index + 1 + " of " : "") + search.total + (search.total === 1 ? " match" : " matches") +
              (search.total > search.matches.length ? " (the first " + search.matches.length + " kept)" : "");
          }
          let searchTimer = null;
          $("tree-search").addEventListener("input", () => {
            clearTimeout(searchTimer);
            searchTimer = setTimeout(() => findMatches($("tree-search").value, true), 150);
          });
          $("tree-search").addEventListener("keydown", (event) => {
            if (event.key === "Enter") {
              event.preventDefault();
              clearTimeout(searchTimer);
              if (ui.search.query !== $("tree-search").value) findMatches($("tree-search").value, true);
              else goToMatch(ui.search.index + (event.shiftKey ? -1 : 1));
            } else if (event.key === "Escape") {
              $("tree-search").value = "";
              findMatches("", false);
              $("tree-search").blur();
            }
          });
          $("search-next").addEventListener("click", () => goToMatch(ui.search.index + 1));
          $("search-previous").addEventListener("click", () => goToMatch(ui.search.index - 1));

          // ---- The selected node, and copying ----
          function valueAt(path) {
            if (!ui.entry || ui.entry.kind === "gap") return { found: false };
            try { return { found: true, value: getAt(ui.entry.state, path) }; } catch (error) { return { found: false }; }
          }
          function setNode(path) {
            ui.node = path;
            for (const old of $("state").querySelectorAll(".node.current")) old.classList.remove("current");
            const node = treeNodes.get(path);
            if (node) node.classList.add("current");
            showNodeContext();
          }
          // The selected node's context: its path, the copy buttons, and `#node-extra`, the place for
          // what else is known about the node (it is emptied whenever another node or entry shows).
          function showNodeContext() {
            const box = $("node-context");
            const path = ui.node === null ? "" : ui.node;
            const found = valueAt(path).found;
            box.hidden = !found;
            $("node-path").textContent = "";
            $("node-extra").textContent = "";
            if (!found) return;
            $("node-path").appendChild(path === "" ? el("span", null, "(root)") : bdi(path));
            box.dataset.path = path;
            if (path !== "") {
              const button = el("button", null, "Changed by…");
              button.type = "button";
              button.id = "changed-by";
              button.title = "The entries up to this one that changed this value (w)";
              button.addEventListener("click", () => showChangedBy(path));
              $("node-extra").appendChild(button);
            }
          }
          // "Changed by": the entries up to the one shown that changed the value at `path`, newest
          // first, each a link to its entry (what `replay-cli why` lists).
          async function showChangedBy(path) {
            if (!ui.entry || ui.entry.kind === "gap" || path === "") return;
            const extra = $("node-extra");
            const token = ++ui.changedByToken;
            extra.textContent = "";
            extra.appendChild(el("div", "hint", "Looking for the entries that changed " + shown(path) + "…"));
            let answer;
            try { answer = await source.changes(String(ui.session.id), path, ui.entry.seq); }
            catch (error) {
              if (token !== ui.changedByToken) return;
              extra.textContent = "";
              extra.appendChild(el("div", "note", "Changed by: " + String(error.message || error)));
              return;
            }
            if (token !== ui.changedByToken) return;
            extra.textContent = "";
            const head = el("div", "changed-by-head");
            head.appendChild(document.createTextNode(answer.changes.length
              ? "Changed by (newest first" + (answer.more ? ", the last " + answer.changes.length : "") + "):"
              : "No entry up to #" + ui.entry.seq + " changed this value."));
            extra.appendChild(head);
            const list = el("ol", "changed-by");
            list.id = "changed-by-list";
            for (const change of answer.changes) {
              const item = el("li");
              const link = el("a", "entry-link", "#" + change.seq);
              link.href = "#session=" + encodeURIComponent(String(ui.session.id)) + "&seq=" + change.seq;
              link.dataset.seq = String(change.seq);
              link.addEventListener("click", (event) => { event.preventDefault(); select(change.seq); });
              item.appendChild(link);
              if (change.action !== undefined && Number(change.action) !== Number(change.seq)) item.appendChild(document.createTextNode(" (action " + change.action + ")"));
              item.appendChild(document.createTextNode(" "));
              item.appendChild(change.label === null || change.label === undefined ? el("span", "hint", "(no label)") : bdi(change.label, "label"));
              item.appendChild(document.createTextNode(": "));
              const value = (key) => own(change, key) ? shown(compactText(change[key])) : change[key + "Omitted"] ? "(large)" : "(absent)";
              item.appendChild(el("code", "changed-values", value("oldValue") + " → " + value("newValue")));
              const via = (change.touched || []).filter((t) => t !== path).map((t) => t === "" ? "the whole state" : (path.startsWith(t + "/") ? "parent " : "child ") + t);
              if (change.droppedBefore > 0) via.push("after " + change.droppedBefore + " dropped actions");
              if (via.length) item.appendChild(el("span", "hint", "  (" + via.join(", ") + ")"));
              list.appendChild(item);
            }
            extra.appendChild(list);
          }
          function copyPath() {
            const path = ui.node === null ? "" : ui.node;
            if (valueAt(path).found) copyText(path, "the path " + (path === "" ? "(root)" : shown(path)));
          }
          function copyValue() {
            const path = ui.node === null ? "" : ui.node;
            const found = valueAt(path);
            if (found.found) copyText(compactText(found.value), "the value at " + (path === "" ? "(root)" : shown(path)));
          }
          $("copy-path").addEventListener("click", copyPath);
          $("copy-value").addEventListener("click", copyValue);
          async function copyText(text, what) {
            let done = false;
            try {
              if (navigator.clipboard && window.isSecureContext) { await navigator.clipboard.writeText(text); done = true; }
            } catch (error) { done = false; }
            if (!done) {
              // Where the clipboard API is refused (no focus, no permission): a selection and the copy command.
              const area = document.createElement("textarea");
              area.value = text;
              area.setAttribute("readonly", "");
              area.style.position = "fixed";
              area.style.opacity = "0";
              document.body.appendChild(area);
              area.select();
              try { done = document.execCommand("copy"); } catch (error) { done = false; }
              area.remove();
            }
            const status = $("copied");
            status.textContent = done ? "Copied " + what + "." : "The browser did not let the page copy " + what + ".";
            status.dataset.copied = done ? "true" : "false";
          }

        """#
}
