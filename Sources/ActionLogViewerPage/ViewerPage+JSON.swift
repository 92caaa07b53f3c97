extension ViewerPage {
    /// The start of the page's script: JSON read and written without losing a number, text made
    /// safe to show, JSON Pointers, JSON Patch and the differences between two values. Every walk
    /// over a value uses an explicit stack, whatever its depth.
    static let scriptJSON = #"""
        "use strict";
        (function () {
          const $ = (id) => document.getElementById(id);

          // ---- JSON, numbers kept exact ----
          // A number whose text a double does not print back the same (an integer past 2^53, 1.0,
          // 1e400, -0) is kept as its text, so that the page shows what the journal holds.
          function RawNumber(text) { this.text = text; Object.freeze(this); }
          // In arithmetic and comparisons it is the nearest double (the page's times and durations).
          RawNumber.prototype.valueOf = function () { return Number(this.text); };
          RawNumber.prototype.toString = function () { return this.text; };
          const isContainer = (value) => value !== null && typeof value === "object" && !(value instanceof RawNumber);
          function setMember(object, key, value) {
            // "__proto__" is a member like any other, not the object's prototype.
            if (key === "__proto__") Object.defineProperty(object, key, { value: value, writable: true, enumerable: true, configurable: true });
            else object[key] = value;
          }
          const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
          // Where a double may not print a number back as written: 16 digits or more, an exponent,
          // a fraction ending in 0 or starting with six zeros, -0. Text without any of these (in its
          // strings too: a false alarm only costs time) goes to the browser's own parser, faster.
          const INEXACT = /\d(?:\.?\d){15}|\d[eE]|\.\d*0(?!\d)|\.0{6}|-0(?![.\d])/;
          function parseJSON(text) {
            return INEXACT.test(text) ? parseExactly(text) : JSON.parse(text);
          }
          function parseExactly(text) {
            let i = 0;
            const fail = (what) => { throw new SyntaxError("The answer is not JSON: " + what + " at character " + i + "."); };
            const space = () => { for (;;) { const c = text.charCodeAt(i); if (c === 32 || c === 10 || c === 13 || c === 9) i++; else return; } };
            function string() {
              const start = ++i;
              let from = i;
              for (;;) {
                const quote = text.indexOf('"', from);
                if (quote < 0) fail("a string without its end");
                let slashes = 0;
                for (let b = quote - 1; b >= start && text.charCodeAt(b) === 92; b--) slashes++;
                if (slashes % 2 === 0) {
                  i = quote + 1;
                  const raw = text.slice(start, quote);
                  return raw.indexOf("\\") < 0 ? raw : JSON.parse('"' + raw + '"');
                }
                from = quote + 1;
              }
            }
            function memberName() {
              space();
              if (text.charCodeAt(i) !== 34) fail("a member name expected");
              const key = string();
              space();
              if (text.charCodeAt(i) !== 58) fail("a colon expected");
              i++;
              return key;
            }
            const stack = [];
            for (;;) {
              space();
              const c = text.charCodeAt(i);
              let value;
              if (c === 123 || c === 91) {
                i++;
                space();
                const array = c === 91;
                const container = array ? [] : {};
                if (text.charCodeAt(i) === (array ? 93 : 125)) { i++; value = container; }
                else { stack.push({ container: container, array: array, key: array ? null : memberName() }); continue; }
              } else if (c === 34) value = string();
              else if (c === 116 && text.startsWith("true", i)) { i += 4; value = true; }
              else if (c === 102 && text.startsWith("false", i)) { i += 5; value = false; }
              else if (c === 110 && text.startsWith("null", i)) { i += 4; value = null; }
              else {
                NUMBER.lastIndex = i;
                const match = NUMBER.exec(text);
                if (!match || match[0] === "") fail("a value expected");
                i += match[0].length;
                const number = Number(match[0]);
                value = String(number) === match[0] ? number : new RawNumber(match[0]);
              }
              // The value is complete: put it in its container, and close those that end here.
              for (;;) {
                const top = stack[stack.length - 1];
                if (!top) { space(); if (i !== text.length) fail("text after the value"); return value; }
                if (top.array) top.container.push(value); else setMember(top.container, top.key, value);
                space();
                const next = text.charCodeAt(i);
                if (next === 44) { i++; if (!top.array) top.key = memberName(); break; }
                if (next !== (top.array ? 93 : 125)) fail("a comma or a closing bracket expected");
                i++;
                stack.pop();
                value = top.container;
              }
            }
          }

          // ---- Text made safe to show ----
          // The characters the CLI escapes (String.displayEscaped): C0 controls, DEL, C1 controls, the
          // bidirectional controls, the line and paragraph separators; and a backslash that would begin \u{.
          const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|\\(?=u\{)/g;
          // What JSON text may hold raw inside strings and the CLI escapes in it (jsonDisplayEscaped).
          const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
          function shown(text) {
            return String(text).replace(UNSAFE, (c) => "\\u{" + c.charCodeAt(0).toString(16).toUpperCase() + "}");
          }
          function quote(text) {
            return JSON.stringify(text).replace(UNSAFE_IN_JSON, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
          }
          function scalarText(value) {
            if (value instanceof RawNumber) return value.text;
            if (typeof value === "string") return quote(value);
            return String(value);
          }
          // JSON text of a value: compact, or indented by two spaces; with `limit`, it stops once
          // longer than that many characters and says so (`truncated`).
          function jsonText(value, pretty, limit) {
            const parts = [];
            let size = 0;
            const put = (text) => { parts.push(text); size += text.length; };
            const stack = [];
            let next = value;
            for (;;) {
              if (isContainer(next)) {
                const array = Array.isArray(next);
                const keys = array ? null : Object.keys(next);
                const count = array ? next.length : keys.length;
                if (count === 0) put(array ? "[]" : "{}");
                else { put(array ? "[" : "{"); stack.push({ value: next, keys: keys, index: 0, count: count, array: array }); }
              } else put(scalarText(next));
              if (limit !== undefined && size > limit) return { text: parts.join(""), truncated: true };
              let more = false;
              while (stack.length) {
                const top = stack[stack.length - 1];
                if (top.index < top.count) {
                  if (top.index > 0) put(",");
                  if (pretty) put("\n" + "  ".repeat(stack.length));
                  if (top.array) next = top.value[top.index];
                  else { const key = top.keys[top.index]; put(quote(key) + (pretty ? ": " : ":")); next = top.value[key]; }
                  top.index++;
                  more = true;
                  break;
                }
                stack.pop();
                if (pretty) put("\n" + "  ".repeat(stack.length));
                put(top.array ? "]" : "}");
              }
              if (!more) return { text: parts.join(""), truncated: false };
            }
          }
          const compactText = (value) => jsonText(value, false).text;

          // ---- Values ----
          function clone(value) {
            if (!isContainer(value)) return value;
            const root = Array.isArray(value) ? [] : {};
            const stack = [[value, root]];
            while (stack.length) {
              const [from, to] = stack.pop();
              for (const key of Object.keys(from)) {
                const member = from[key];
                if (!isContainer(member)) { if (Array.isArray(to)) to.push(member); else setMember(to, key, member); continue; }
                const copy = Array.isArray(member) ? [] : {};
                if (Array.isArray(to)) to.push(copy); else setMember(to, key, copy);
                stack.push([member, copy]);
              }
            }
            return root;
          }
          function sameJSON(a, b) {
            const stack = [[a, b]];
            while (stack.length) {
              const [x, y] = stack.pop();
              if (x instanceof RawNumber || y instanceof RawNumber) {
                if (!(x instanceof RawNumber && y instanceof RawNumber && x.text === y.text)) return false;
                continue;
              }
              if (!isContainer(x) || !isContainer(y)) { if (x !== y) return false; continue; }
              if (Array.isArray(x) !== Array.isArray(y)) return false;
              const keys = Object.keys(x);
              if (keys.length !== Object.keys(y).length) return false;
              for (const key of keys) {
                if (!Object.prototype.hasOwnProperty.call(y, key)) return false;
                stack.push([x[key], y[key]]);
              }
            }
            return true;
          }
          // Keys in the order of their code points (UTF-8 byte order), as the journal sorts them.
          function byCodePoint(a, b) {
            // UTF-16 order but for the surrogates (halves of code points past U+FFFF), which go after U+E000–U+FFFF.
            const rank = (c) => (c >= 0xD800 && c <= 0xDFFF ? c + 0x2000 : c >= 0xE000 ? c - 0x800 : c);
            const n = Math.min(a.length, b.length);
            for (let i = 0; i < n; i++) {
              const x = a.charCodeAt(i), y = b.charCodeAt(i);
              if (x !== y) return rank(x) - rank(y);
            }
            return a.length - b.length;
          }
          // The fields that differ between two values, as JSONValue.differences(to:) finds them
          // (objects member by member, arrays element by element after their common ends):
          // [{path, from, to}], a side left out where the field is absent.
          function differences(earlier, later) {
            const found = [];
            const stack = [{ from: earlier, to: later, path: "", hasFrom: true, hasTo: true }];
            while (stack.length) {
              const { from, to, path, hasFrom, hasTo } = stack.pop();
              const bothObjects = hasFrom && hasTo && isContainer(from) && isContainer(to) && !Array.isArray(from) && !Array.isArray(to);
              const bothArrays = hasFrom && hasTo && Array.isArray(from) && Array.isArray(to);
              const pending = [];
              if (bothObjects) {
                const keys = Array.from(new Set(Object.keys(from).concat(Object.keys(to)))).sort(byCodePoint);
                for (const key of keys) {
                  const inFrom = Object.prototype.hasOwnProperty.call(from, key), inTo = Object.prototype.hasOwnProperty.call(to, key);
                  if (inFrom && inTo && sameJSON(from[key], to[key])) continue;
                  pending.push({ from: from[key], to: to[key], path: path + "/" + escapeToken(key), hasFrom: inFrom, hasTo: inTo });
                }
              } else if (bothArrays) {
                let prefix = 0;
                while (prefix < Math.min(from.length, to.length) && sameJSON(from[prefix], to[prefix])) prefix++;
                let suffix = 0;
                while (suffix < Math.min(from.length, to.length) - prefix && sameJSON(from[from.length - 1 - suffix], to[to.length - 1 - suffix])) suffix++;
                for (let index = prefix; index < Math.max(from.length, to.length) - suffix; index++) {
                  const inFrom = index < from.length - suffix, inTo = index < to.length - suffix;
                  if (inFrom && inTo && sameJSON(from[index], to[index])) continue;
                  pending.push({ from: from[index], to: to[index], path: path + "/" + index, hasFrom: inFrom, hasTo: inTo });
                }
              } else {
                if (hasFrom && hasTo && sameJSON(from, to)) continue;
                const difference = { path: path };
                if (hasFrom) difference.from = from;
                if (hasTo) difference.to = to;
                found.push(difference);
                continue;
              }
              for (let i = pending.length - 1; i >= 0; i--) stack.push(pending[i]);
            }
            return found;
          }

          // ---- JSON Pointers and JSON Patch (RFC 6901, 6902), applied to a copy ----
          function unescapeToken(token) { return token.replace(/~1/g, "/").replace(/~0/g, "~"); }
          function escapeToken(token) { return String(token).replace(/~/g, "~0").replace(/\//g, "~1"); }
          function tokens(pointer) {
            if (pointer === "") return [];
            if (pointer[0] !== "/") throw new Error("bad pointer " + pointer);
            return pointer.slice(1).split("/").map(unescapeToken);
          }
          const has = (node, token) => Array.isArray(node) ? /^(0|[1-9][0-9]*)$/.test(token) && Number(token) < node.length
            : isContainer(node) && Object.prototype.hasOwnProperty.call(node, token);
          function getAt(doc, pointer) {
            let node = doc;
            for (const token of tokens(pointer)) {
              if (!has(node, token)) throw new Error("no value at " + pointer);
              node = Array.isArray(node) ? node[Number(token)] : node[token];
            }
            return node;
          }
          function applyOperation(root, op) {
            function parentOf(pointer) {
              const list = tokens(pointer);
              const last = list.pop();
              let node = root;
              for (const token of list) {
                if (!has(node, token)) throw new Error("no parent at " + pointer);
                node = Array.isArray(node) ? node[Number(token)] : node[token];
              }
              if (!isContainer(node)) throw new Error("no parent at " + pointer);
              return [node, last];
            }
            function add(pointer, value) {
              if (pointer === "") { root = value; return; }
              const [parent, key] = parentOf(pointer);
              if (Array.isArray(parent)) parent.splice(key === "-" ? parent.length : Number(key), 0, value);
              else setMember(parent, key, value);
            }
            function remove(pointer) {
              if (pointer === "") { root = null; return; }
              const [parent, key] = parentOf(pointer);
              if (Array.isArray(parent)) parent.splice(Number(key), 1); else delete parent[key];
            }
            switch (op.op) {
              case "add": add(op.path, clone(op.value)); break;
              case "remove": remove(op.path); break;
              case "replace": remove(op.path); add(op.path, clone(op.value)); break;
              case "move": { const value = getAt(root, op.from); remove(op.from); add(op.path, value); break; }
              case "copy": add(op.path, clone(getAt(root, op.from))); break;
              case "test": break;
              default: throw new Error("unknown operation " + op.op);
            }
            return root;
          }
          function applyPatch(doc, patch) {
            let root = doc;
            for (const op of patch) root = applyOperation(root, op);
            return root;
          }
          // The value an operation replaces or removes, if any (an add that sets an existing member replaces it).
          function replacedValue(doc, op) {
            if (op.op === "replace" || op.op === "remove") {
              try { return { value: getAt(doc, op.path) }; } catch (error) { return null; }
            }
            if (op.op !== "add") return null;
            if (op.path === "") return { value: doc };
            const list = tokens(op.path);
            const last = list.pop();
            let parent;
            try { parent = getAt(doc, list.map(escapeToken).map((t) => "/" + t).join("")); } catch (error) { return null; }
            return isContainer(parent) && !Array.isArray(parent) && Object.prototype.hasOwnProperty.call(parent, last) ? { value: parent[last] } : null;
          }
          // A change's operations with `old` set, as the server sends them: applied one by one to a
          // copy of the state before, each meets the value it replaces.
          function withOldValues(before, change) {
            let doc = clone(before);
            let applies = true;
            return change.map((op) => {
              const copy = Object.assign({}, op);
              if (applies) {
                try {
                  const old = replacedValue(doc, op);
                  if (old) copy.old = old.value;
                  doc = applyOperation(doc, op);
                } catch (error) { applies = false; }
              }
              return copy;
            });
          }

        """#
}
