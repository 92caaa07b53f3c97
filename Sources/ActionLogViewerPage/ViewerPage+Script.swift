extension ViewerPage {
    /// The page's script. It reads its data through one of two sources with the same three calls
    /// (sessions, a window of the timeline, one entry): the server's API, or the data embedded in a
    /// report. Journal strings reach the document through `textContent` only.
    static var script: String { scriptData + scriptSessions + scriptInterface }

    /// The first half: label patterns, JSON Patch, and the two data sources.
    static let scriptData = #"""
        "use strict";
        (function () {
          const $ = (id) => document.getElementById(id);
          const WINDOW = 200;          // rows asked for at a time
          const MAX_ROWS = 600;        // rows kept in the document at most
          const TREE_BUDGET = 5000;    // state nodes drawn before the rest waits for a click
          const POLL_MS = 500;
          const READ_ON_MS = 250;      // pause before a filtered window too short to scroll asks for the next

          // ---- Label patterns: * any run, ? one character; no wildcard: contains ----
          function labelMatcher(filter) {
            if (!filter) return null;
            let pattern = Array.from(filter);
            if (!pattern.some((c) => c === "*" || c === "?")) pattern = ["*"].concat(pattern, ["*"]);
            return function (label) {
              if (label == null) return false;
              const text = Array.from(label);
              let p = 0, t = 0, starP = -1, starT = 0;
              while (t < text.length) {
                if (p < pattern.length && pattern[p] === "*") { starP = p; starT = t; p++; }
                else if (p < pattern.length && (pattern[p] === "?" || pattern[p] === text[t])) { p++; t++; }
                else if (starP >= 0) { p = starP + 1; starT++; t = starT; }
                else return false;
              }
              while (p < pattern.length && pattern[p] === "*") p++;
              return p === pattern.length;
            };
          }

          // ---- JSON Patch (RFC 6902), applied to a copy ----
          function unescapeToken(token) { return token.replace(/~1/g, "/").replace(/~0/g, "~"); }
          function escapeToken(token) { return String(token).replace(/~/g, "~0").replace(/\//g, "~1"); }
          function tokens(pointer) {
            if (pointer === "") return [];
            if (pointer[0] !== "/") throw new Error("bad pointer " + pointer);
            return pointer.slice(1).split("/").map(unescapeToken);
          }
          function getAt(doc, pointer) {
            let node = doc;
            for (const token of tokens(pointer)) {
              if (Array.isArray(node)) node = node[Number(token)];
              else if (node !== null && typeof node === "object" && Object.prototype.hasOwnProperty.call(node, token)) node = node[token];
              else throw new Error("no value at " + pointer);
            }
            return node;
          }
          function clone(value) { return value === undefined ? undefined : JSON.parse(JSON.stringify(value)); }
          function applyPatch(doc, patch) {
            let root = doc;
            function parentOf(pointer) {
              const list = tokens(pointer);
              const last = list.pop();
              let node = root;
              for (const token of list) {
                node = Array.isArray(node) ? node[Number(token)] : node[token];
                if (node === null || typeof node !== "object") throw new Error("no parent at " + pointer);
              }
              return [node, last];
            }
            function add(pointer, value) {
              if (pointer === "") { root = value; return; }
              const [parent, key] = parentOf(pointer);
              if (Array.isArray(parent)) {
                const index = key === "-" ? parent.length : Number(key);
                parent.splice(index, 0, value);
              } else parent[key] = value;
            }
            function remove(pointer) {
              if (pointer === "") { root = null; return; }
              const [parent, key] = parentOf(pointer);
              if (Array.isArray(parent)) parent.splice(Number(key), 1); else delete parent[key];
            }
            for (const op of patch) {
              switch (op.op) {
                case "add": add(op.path, clone(op.value)); break;
                case "remove": remove(op.path); break;
                case "replace": remove(op.path); add(op.path, clone(op.value)); break;
                case "move": { const value = getAt(root, op.from); remove(op.from); add(op.path, value); break; }
                case "copy": add(op.path, clone(getAt(root, op.from))); break;
                case "test": break;
                default: throw new Error("unknown operation " + op.op);
              }
            }
            return root;
          }

          // ---- Data sources ----
          function apiSource() {
            async function get(path) {
              const response = await fetch(path, { cache: "no-store" });
              let body = null;
              try { body = await response.json(); } catch (e) { body = null; }
              if (!response.ok) throw new Error((body && body.error) || ("HTTP " + response.status));
              return body;
            }
            const base = (id) => "api/sessions/" + encodeURIComponent(id);
            return {
              live: true,
              sessions: (before) => get("api/sessions" + (before ? "?before=" + encodeURIComponent(before) : "")),
              timeline: (id, from, limit, filter) =>
                get(base(id) + "/timeline?from=" + from + "&limit=" + limit + (filter ? "&label=" + encodeURIComponent(filter) : "")),
              entry: (id, seq) => get(base(id) + "/entries/" + seq),
            };
          }

          function embeddedSource(data) {
            const byId = new Map(data.sessions.map((s) => [String(s.id), s]));
            const withoutData = (s) => { const c = Object.assign({}, s); delete c.data; return c; };
            let cache = null; // { id, index, state }
            function find(session, seq) {
              const entries = session.data;
              let lo = 0, hi = entries.length;
              while (lo < hi) { const mid = (lo + hi) >> 1; if (entries[mid][0] < seq) lo = mid + 1; else hi = mid; }
              return lo;
            }
            function need(id) {
              const session = byId.get(String(id));
              if (!session) throw new Error(data.file + ": no session " + JSON.stringify(String(id)));
              return session;
            }
            function stateAt(id, session, index) {
              const entries = session.data;
              let start = index;
              while (start >= 0 && entries[start][3] === "delta") start--;
              if (start < 0 || entries[start][3] === "gap") return undefined;
              let state, from;
              if (cache && cache.id === id && cache.index >= start && cache.index <= index) { state = clone(cache.state); from = cache.index + 1; }
              else { state = clone(entries[start][8]); from = start + 1; }
              for (let i = from; i <= index; i++) state = applyPatch(state, entries[i][8]);
              cache = { id: id, index: index, state: state };
              return clone(state);
            }
            return {
              live: false,
              sessions: async () => ({ file: data.file, sessions: data.sessions.map(withoutData) }),
              timeline: async (id, from, limit, filter) => {
                const session = need(id);
                const match = labelMatcher(filter);
                const rows = [];
                let i = find(session, from);
                for (; i < session.data.length && rows.length < limit; i++) {
                  const e = session.data[i];
                  if (!match || match(e[2])) rows.push(e.slice(0, 6));
                }
                return { session: withoutData(session), from: from, rows: rows, next: i < session.data.length ? session.data[i][0] : null,
                         end: i < session.data.length ? session.data[i][0] : session.entries };
              },
              entry: async (id, seq) => {
                const session = need(id);
                const index = find(session, seq);
                const e = session.data[index];
                if (!e || e[0] !== seq) throw new Error(data.file + ", session " + id + ", entry " + seq + ": no such entry");
                const state = e[3] === "gap" ? null : stateAt(String(id), session, index);
                let change = [], source = "none";
                if (e[3] === "delta") { change = e[8]; source = "delta"; }
                else if (e[3] === "keyframe") { if (seq === 0) source = "initial"; else if (e[9]) { change = e[9]; source = "diff"; } }
                return { session: String(id), seq: seq, kind: e[3], label: e[2], offset: e[1], reducerNanoseconds: e[4],
                         action: e[6], effect: e[7], state: state === undefined ? null : state, change: change,
                         changeSource: source, dropped: e[5], note: e[11], handler: e[10] };
              },
            };
          }

          const embedded = $("actionlog-data");
          const data = embedded ? JSON.parse(embedded.textContent) : null;
          const source = data ? embeddedSource(data) : apiSource();

        """#
}
