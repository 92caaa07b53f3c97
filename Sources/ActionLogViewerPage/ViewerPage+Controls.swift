extension ViewerPage {
    /// The end of the page's script: the filter, the entry box, the slider and the keys, following
    /// a session that is still recording, and the start.
    static let scriptControls = #"""
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
          // The keys, the same on the timeline, the slider and the page: ↓ → j next, ↑ ← k previous,
          // PageDown and PageUp ten entries, Home the first, End the newest; / searches the state, c
          // copies the selected node's path and C its value. Text boxes keep their own keys.
          document.addEventListener("keydown", (event) => {
            const target = event.target;
            const typing = target && ((target.tagName === "INPUT" && target.type !== "range") || target.tagName === "TEXTAREA" || target.isContentEditable);
            if (typing || event.metaKey || event.ctrlKey || event.altKey) return;
            const moves = {
              ArrowDown: () => step(1), ArrowRight: () => step(1), j: () => step(1),
              ArrowUp: () => step(-1), ArrowLeft: () => step(-1), k: () => step(-1),
              PageDown: () => step(PAGE_STEP), PageUp: () => step(-PAGE_STEP),
              Home: selectFirst, End: selectLast,
            };
            const other = { "/": () => { $("tree-search").focus(); $("tree-search").select(); }, c: copyPath, C: copyValue, w: () => { if (ui.node !== null && ui.node !== "") showChangedBy(ui.node); } };
            const action = moves[event.key] || other[event.key];
            if (!action) return;
            // A button keeps Enter and Space; the slider's own steps would go the other way.
            event.preventDefault();
            Promise.resolve(action()).catch(showError);
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
            if (!ui.session || String(ui.session.id) !== wanted.session) openSession(wanted.session, wanted.seq);
            else if (wanted.seq !== null && wanted.seq !== ui.selected) select(wanted.seq);
          });

          // ---- Following a recording session ----
          // While following, each new entry is selected as it arrives; selecting another entry, or
          // Pause, stops; End, "Jump to latest" or Follow start again.
          function isLive() { return source.live && ui.session !== null && ui.session.status === "recording"; }
          function updateLive() {
            const live = isLive();
            $("live").hidden = !live;
            $("live-controls").hidden = !live;
            $("live").textContent = ui.follow ? "● live, following" : "● live, paused";
            $("pause").textContent = ui.follow ? "Pause" : "Follow";
            $("pause").setAttribute("aria-pressed", String(!ui.follow));
          }
          function setFollow(on) {
            ui.follow = on;
            updateLive();
          }
          async function jumpToLatest() {
            if (!ui.session) return;
            setFollow(isLive());
            if (isFiltered()) {
              if (!ui.atTail) await loadLater();
              if (ui.rows.length) await select(ui.rows[ui.rows.length - 1][0], true);
              return;
            }
            await select(newest(), true);
          }
          $("pause").addEventListener("click", () => { if (ui.follow) setFollow(false); else jumpToLatest().catch(showError); });
          $("latest").addEventListener("click", () => { jumpToLatest().catch(showError); });

          // Every POLL_MS while the session records (and once more after, for the rows written
          // last): a window that holds the last rows read asks for the rows after them, whatever the
          // session's count says meanwhile; another asks for the count only.
          async function poll() {
            if (ui.polling || !source.live || !ui.session) return;
            const unread = ui.atTail && ui.end < Number(ui.session.entries);
            if (ui.session.status !== "recording" && !unread) return;
            ui.polling = true;
            const id = String(ui.session.id);
            const token = ui.windowToken;
            try {
              const tail = ui.atTail;
              const body = await source.timeline(id, tail ? ui.end : 0, tail ? WINDOW : 0, ui.filter);
              if (token !== ui.windowToken || !ui.session || String(ui.session.id) !== id) return;
              if (tail) appendRows(body); else updateSession(body.session);
              if (ui.follow) {
                const last = ui.rows.length ? ui.rows[ui.rows.length - 1][0] : null;
                if (isFiltered() ? last !== null && last !== ui.selected : ui.selected !== newest()) {
                  await select(isFiltered() ? last : newest(), true);
                }
              }
              // A read that failed said so; the next that succeeds takes its message down.
              if (ui.pollError !== null && $("message").textContent === ui.pollError) showError(null);
              ui.pollError = null;
            } catch (error) {
              showError(error);
              ui.pollError = $("message").textContent;
            }
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
              $("file").textContent = shown(body.file || "");
              document.title = (body.file ? shown(body.file) + " — " : "") + "ActionLog viewer";
              if (data && data.message) { const m = $("report-message"); m.hidden = false; m.textContent = data.message; }
              renderSessions();
              document.body.dataset.loaded = "true";
              const wanted = fromHash();
              const fallback = data && data.open ? data.open : (ui.sessions.length ? { session: String(ui.sessions[ui.sessions.length - 1].id), seq: null } : null);
              const target = wanted.session !== null ? { session: wanted.session, seq: wanted.seq } : fallback;
              if (target) await openSession(String(target.session), target.seq === null || target.seq === undefined ? null : Number(target.seq) || 0);
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
