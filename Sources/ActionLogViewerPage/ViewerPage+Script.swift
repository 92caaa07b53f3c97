extension ViewerPage {
    /// The page's script. It reads its data through one of two sources with the same calls
    /// (sessions, a window of the timeline, one entry, a comparison of two entries): the server's
    /// API, or the data embedded in a report. Journal strings reach the document through
    /// `textContent` only, escaped as the CLI escapes them and isolated from the text around them.
    static var script: String { scriptJSON + scriptData + scriptSessions + scriptInterface + scriptEntry + scriptTree + scriptControls }

    /// After ``scriptJSON``: the page's constants, label patterns and the two data sources.
    static let scriptData = #"""
          const WINDOW = 200;          // rows asked for at a time
          const MAX_ROWS = 600;        // rows kept in the document at most
          const TREE_BUDGET = 5000;    // state nodes drawn before the rest waits for a click
          const CHILD_PAGE = 500;      // members of one object or array drawn at a time
          const EXPAND_BUDGET = 20000; // state nodes "Expand all" draws at most
          const MATCH_LIMIT = 1000;    // state search results kept
          const POLL_MS = 500;
          const READ_ON_MS = 250;      // pause before a filtered window too short to scroll asks for the next
          const PAGE_STEP = 10;        // entries PageUp and PageDown move

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

          // ---- Data sources ----
          function apiSource() {
            async function get(path) {
              const response = await fetch(path, { cache: "no-store" });
              let body = null;
              try { body = parseJSON(await response.text()); } catch (e) { body = null; }
              if (!response.ok || body === null) throw new Error((body && body.error) || ("HTTP " + response.status + " for " + path));
              return body;
            }
            const base = (id) => "api/sessions/" + encodeURIComponent(id);
            return {
              live: true,
              sessions: (before) => get("api/sessions" + (before ? "?before=" + encodeURIComponent(before) : "")),
              timeline: (id, from, limit, filter) =>
                get(base(id) + "/timeline?from=" + from + "&limit=" + limit + (filter ? "&label=" + encodeURIComponent(filter) : "")),
              entry: (id, seq) => get(base(id) + "/entries/" + seq),
              compare: (id, from, to) => get(base(id) + "/compare?from=" + from + "&to=" + to),
              changes: (id, path, at) => get(base(id) + "/changes?path=" + encodeURIComponent(path) + "&at=" + at),
            };
          }

          // A report's rows: [seq, offset, label, kind, reducerNanoseconds, dropped, action, effect,
          // stored (a keyframe's state or a delta's patch), change (a keyframe's diff), handler, note].
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
            // The state after the entry at `index`: its keyframe and the deltas after it, across gaps
            // (a delta after a gap patches the state before the gap); undefined at a gap.
            function stateAt(id, session, index) {
              const entries = session.data;
              if (index < 0 || entries[index][3] === "gap") return undefined;
              let start = index;
              while (start >= 0 && (entries[start][3] === "delta" || entries[start][3] === "gap")) start--;
              if (start < 0 || entries[start][3] !== "keyframe") return undefined;
              let state, from;
              if (cache && cache.id === id && cache.index >= start && cache.index <= index) { state = clone(cache.state); from = cache.index + 1; }
              else { state = clone(entries[start][8]); from = start + 1; }
              for (let i = from; i <= index; i++) if (entries[i][3] === "delta") state = applyPatch(state, entries[i][8]);
              cache = { id: id, index: index, state: state };
              return clone(state);
            }
            // The number of the action of the entry at `index`, counting the actions gaps lost.
            function actionOf(session, index) {
              let number = Number(session.data[index][0]);
              for (let j = 0; j < index; j++) if (session.data[j][3] === "gap") number += (Number(session.data[j][5]) || 1) - 1;
              return number;
            }
            function entryIndex(id, session, seq) {
              const index = find(session, seq);
              const e = session.data[index];
              if (!e || e[0] !== seq) throw new Error(data.file + ", session " + id + ", entry " + seq + ": no such entry");
              return index;
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
                const index = entryIndex(id, session, seq);
                const e = session.data[index];
                let change = [], source = "none";
                // After a gap, a delta's patch is from the state before the gap: nothing is said, as the server does.
                if (e[3] === "delta") { if (index > 0 && session.data[index - 1][3] !== "gap") { change = e[8]; source = "delta"; } }
                else if (e[3] === "keyframe") { if (seq === 0) source = "initial"; else if (e[9]) { change = e[9]; source = "diff"; } }
                // What each operation replaced, from the state before, as the server sends it (read
                // first: the state after then goes on from it).
                const before = change.length && index > 0 && session.data[index - 1][3] !== "gap" ? stateAt(String(id), session, index - 1) : undefined;
                if (before !== undefined) change = withOldValues(before, change);
                const state = e[3] === "gap" ? null : stateAt(String(id), session, index);
                return { session: String(id), seq: seq, actionNumber: actionOf(session, index), kind: e[3], label: e[2], offset: e[1], reducerNanoseconds: e[4],
                         action: e[6], effect: e[7], state: state === undefined ? null : state, change: change,
                         changeSource: source, dropped: e[5], note: e[11], handler: e[10] };
              },
              compare: async (id, from, to) => {
                const session = need(id);
                const states = [from, to].map((seq) => {
                  const index = entryIndex(id, session, seq);
                  const state = session.data[index][3] === "gap" ? undefined : stateAt(String(id), session, index);
                  if (state === undefined) throw new Error(data.file + ", session " + id + ", entry " + seq + ": a gap: no state was recorded");
                  return state;
                });
                return { session: String(id), from: from, to: to, differences: differences(states[0], states[1]) };
              },
              // What the server's index answers, by a walk back from `at`: the entries whose change
              // touched the path, a parent or a child, and after which the value differs.
              changes: async (id, path, at) => {
                const session = need(id);
                const relates = (t) => t === path || t === "" || path.startsWith(t + "/") || t.startsWith(path + "/");
                const parent = (p) => p.slice(0, p.lastIndexOf("/"));
                const valueIn = (state, p) => { try { return { value: getAt(state, p) }; } catch (e) { return null; } };
                const list = [];
                for (let index = entryIndex(id, session, at); index > 0 && list.length < 20; index--) {
                  const e = session.data[index];
                  if (e[3] === "gap") continue;
                  // A keyframe without its diff (after a gap) is taken as a change of the path: the values decide.
                  const ops = e[3] === "delta" ? e[8] : (e[9] || [{ op: "replace", path: path }]);
                  const touched = [];
                  for (const op of ops || [{ path: "" }]) {
                    const paths = [op.path].concat(op.from !== undefined ? [op.from] : []);
                    if (op.op !== "replace" && op.op !== "test") for (const p of paths.slice()) if (/\/(-|0|[1-9][0-9]*)$/.test(p)) paths.push(parent(p));
                    for (const p of paths) if (relates(p) && !touched.includes(p)) touched.push(p);
                  }
                  if (!touched.length) continue;
                  let before = index - 1, dropped = 0;
                  while (before > 0 && session.data[before][3] === "gap") { dropped += Number(session.data[before][5]) || 0; before--; }
                  const old = valueIn(stateAt(String(id), session, before), path);
                  const now = valueIn(stateAt(String(id), session, index), path);
                  if (old === null && now === null) continue;
                  if (old !== null && now !== null && sameJSON(old.value, now.value)) continue;
                  const change = { seq: e[0], action: actionOf(session, index), label: e[2], touched: touched, droppedBefore: dropped };
                  if (old !== null) change.oldValue = old.value;
                  if (now !== null) change.newValue = now.value;
                  list.push(change);
                }
                return { session: String(id), path: path, changes: list, more: list.length === 20 };
              },
            };
          }

          const embedded = $("actionlog-data");
          const data = embedded ? parseJSON(embedded.textContent) : null;
          const source = data ? embeddedSource(data) : apiSource();

        """#
}
