extension ViewerPage {
    /// Neutral colours that follow the system's light or dark setting; fixed-height rows, so the
    /// timeline scrolls evenly however many rows are loaded.
    static let style = #"""
        :root { color-scheme: light dark; --bg: #fafafa; --fg: #1d1d1f; --muted: #6e6e73; --line: #d8d8dc;
          --panel: #ffffff; --select: #dbe8ff; --changed: #fff1c2; --has-change: #fff9e6; --add: #1a7f37; --remove: #b42318;
          --accent: #2f6fdf; --gap: #b54708; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #1b1b1d; --fg: #e6e6e9; --muted: #9a9aa2; --line: #3a3a3f; --panel: #232326; --select: #27406b;
            --changed: #5a4a12; --has-change: #33301f; --add: #5fd07a; --remove: #ff7b72; --accent: #7aa7ff; --gap: #f0a35e; }
        }
        * { box-sizing: border-box; }
        [hidden] { display: none !important; }
        body { margin: 0; background: var(--bg); color: var(--fg); font: 13px/1.4 -apple-system, "Segoe UI", system-ui, sans-serif; }
        header { padding: 8px 12px; border-bottom: 1px solid var(--line); display: flex; gap: 10px; align-items: baseline; }
        #file { color: var(--muted); }
        #live { color: var(--add); font-size: 12px; }
        #message { margin: 8px 12px; padding: 6px 10px; border: 1px solid var(--remove); color: var(--remove); border-radius: 4px; white-space: pre-wrap; }
        #report-message { margin: 8px 12px; padding: 8px 10px; border: 1px solid var(--line); background: var(--panel); max-height: 30vh; overflow: auto; }
        main { display: grid; grid-template-columns: minmax(180px, 240px) minmax(260px, 380px) 1fr; height: calc(100vh - 42px); }
        nav, section { border-right: 1px solid var(--line); overflow: hidden; display: flex; flex-direction: column; min-width: 0; }
        h2, h3 { font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 10px 10px 6px; }
        .hint { text-transform: none; letter-spacing: 0; font-weight: normal; }
        #sessions { list-style: none; margin: 0; padding: 0; overflow: auto; }
        #sessions li { padding: 6px 10px; border-bottom: 1px solid var(--line); cursor: pointer; }
        #sessions li.selected { background: var(--select); }
        #sessions .name { font-weight: 600; overflow-wrap: anywhere; }
        #sessions .meta { color: var(--muted); font-size: 12px; overflow-wrap: anywhere; }
        .status-recording { color: var(--add); }
        .status-interrupted { color: var(--gap); }
        .controls { display: flex; gap: 6px; padding: 8px 10px 4px; }
        .controls input { min-width: 0; font: inherit; padding: 3px 6px; border: 1px solid var(--line); border-radius: 4px; background: var(--panel); color: var(--fg); }
        #filter { flex: 2; } #jump { flex: 1; }
        #slider { margin: 4px 10px; }
        #timeline-info { color: var(--muted); font-size: 12px; padding: 0 10px 4px; }
        #timeline { flex: 1; overflow-y: auto; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; outline: none; }
        #timeline .row { height: 22px; line-height: 22px; display: grid; grid-template-columns: 7ch 9ch 1fr 8ch; gap: 6px;
          padding: 0 10px; cursor: pointer; white-space: nowrap; }
        #timeline .row > span { overflow: hidden; text-overflow: ellipsis; }
        #timeline .row:hover { background: var(--has-change); }
        #timeline .row.selected { background: var(--select); }
        #timeline .row[data-kind="gap"] { color: var(--gap); }
        #timeline .seq, #timeline .duration, #timeline .offset { color: var(--muted); text-align: right; }
        #timeline .more { height: 22px; line-height: 22px; color: var(--muted); padding: 0 10px; }
        #detail-pane { border-right: 0; overflow: auto; }
        #entry-head { padding: 8px 10px; border-bottom: 1px solid var(--line); font-family: ui-monospace, Menlo, monospace; overflow-wrap: anywhere; }
        .columns { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); }
        .column { min-width: 0; padding-bottom: 20px; }
        #state, #action, #effect, #handler { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; margin: 0 10px; }
        pre { white-space: pre-wrap; overflow-wrap: anywhere; }
        #state .node > .line { cursor: default; padding: 0 4px; border-radius: 3px; white-space: pre-wrap; overflow-wrap: anywhere; }
        #state .node.container > .line { cursor: pointer; }
        #state .children { margin-left: 16px; border-left: 1px dotted var(--line); padding-left: 4px; }
        #state .node.collapsed > .children { display: none; }
        #state .toggle { display: inline-block; width: 1em; color: var(--muted); }
        #state .node.collapsed > .line .toggle::before { content: "▸"; }
        #state .node.container:not(.collapsed) > .line .toggle::before { content: "▾"; }
        #state .key { color: var(--accent); }
        #state .summary, .null { color: var(--muted); }
        #state .node.changed > .line { background: var(--changed); }
        #state .node.has-change > .line { background: var(--has-change); }
        bdi { unicode-bidi: isolate; }
        .changes { list-style: none; padding: 0; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; margin: 0 10px; }
        .changes li { padding: 3px 0; border-bottom: 1px dotted var(--line); overflow-wrap: anywhere; }
        .changes .op { font-weight: 600; margin-right: 6px; }
        .changes .op-add { color: var(--add); } .changes .op-remove { color: var(--remove); }
        .changes .from { color: var(--muted); margin: 0 6px; }
        .side { display: flex; gap: 6px; align-items: baseline; margin-left: 12px; }
        .side .sign { font-weight: 600; width: 1ch; flex: none; }
        .side.old .sign, .side.old > .value.inline { color: var(--remove); }
        .side.new .sign, .side.new > .value.inline { color: var(--add); }
        .side > div, .side > pre { min-width: 0; flex: 1; }
        .absent { color: var(--muted); font-style: italic; }
        pre.json { margin: 2px 0; white-space: pre-wrap; overflow-wrap: anywhere; }
        .value.folded > pre, .value.folded > div { display: none; }
        button.fold, button.link { font: inherit; color: var(--accent); background: none; border: 0; padding: 0; cursor: pointer; text-align: left; }
        .note { color: var(--muted); font-size: 12px; }
        #action, #effect, #handler { overflow-wrap: anywhere; }
        header button, .controls button, #node-context button { font: inherit; font-size: 12px; padding: 1px 8px; border: 1px solid var(--line); border-radius: 4px;
          background: var(--panel); color: var(--fg); cursor: pointer; }
        #live-controls { display: inline-flex; gap: 6px; }
        #copied { color: var(--muted); font-size: 12px; margin-left: auto; }
        #keys-hint { padding: 0 10px 4px; color: var(--muted); font-size: 11px; }
        kbd { font: 11px ui-monospace, Menlo, monospace; border: 1px solid var(--line); border-radius: 3px; padding: 0 3px; margin: 0 1px; }
        #compare-form { padding: 6px 10px; align-items: baseline; flex-wrap: wrap; }
        #compare-form input { width: 10ch; }
        #compare-result { border-bottom: 1px solid var(--line); padding-bottom: 6px; }
        .tree-controls { flex-wrap: wrap; align-items: center; padding: 0 10px 4px; }
        #tree-search { flex: 1; min-width: 12ch; }
        #node-context { margin: 0 10px 4px; padding: 3px 6px; border: 1px solid var(--line); border-radius: 4px; background: var(--panel);
          font-size: 12px; overflow-wrap: anywhere; }
        #node-path { margin-right: 6px; }
        #changed-by { margin-left: 6px; }
        ol.changed-by { margin: 4px 0 0; padding-left: 18px; }
        ol.changed-by li { margin: 2px 0; }
        .changed-values { margin-left: 2px; }
        #tree-note { padding: 0 10px; }
        #state .node.match > .line { outline: 1px solid var(--accent); }
        #state .node.match-current > .line { background: var(--select); }
        #state .node.current > .line { box-shadow: inset 3px 0 0 var(--accent); }
        #state .more { color: var(--accent); cursor: pointer; padding: 0 4px; }
        .empty { color: var(--muted); font-style: italic; }
        """#
}
