"""index.html: the page a dump opens with, linking every file of it."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ._recorder import Recorder


def index_html(recorder: "Recorder") -> str:
    files = recorder.files

    def link(file_name: str) -> str:
        return '<a href="%s">%s</a>' % (html.escape(file_name), html.escape(file_name))

    out = ["<!DOCTYPE html>", "<html><head><meta charset='utf-8'>",
           "<title>unpyc: what torch.compile did</title></head><body>",
           "<h1>What torch.compile did</h1>",
           "<p>unpyc rewrites this page after each compile while the block runs, "
           "and once more when it ends.</p>"]
    not_emitted = [line for line in map(recorder.not_emitted, files.graph_files) if line]
    if files.problems or not_emitted:
        out.append("<h2>Missing from this dump</h2><ul>")
        out.extend("<li>%s</li>" % html.escape(p) for p in files.problems + not_emitted)
        out.append("</ul>")
    linked = {name for record in recorder.functions.values()
              for entry in record.entries for name in entry.graph_names}
    unlinked = sorted(name for name in files.graph_files if name not in linked)
    if unlinked:
        out.append("<h2>Graphs no dumped function calls</h2><ul>")
        for name in unlinked:
            graph_files = sorted(files.graph_files[name].values())
            out.append("<li>%s: %s</li>" % (
                html.escape(name), ", ".join(link(f) for f in graph_files)))
        out.append("</ul>")
    for record in recorder.functions.values():
        out.append("<h2>%s%s</h2><ul>" % (
            html.escape(record.stem), " (resume function)" if record.is_resume else ""))
        full = "full_code_for_%s.py" % record.stem
        if (files.dump_dir / full).exists():
            out.append("<li>start here: %s</li>" % link(full))
        if record.is_resume and (files.dump_dir / (record.stem + ".py")).exists():
            out.append("<li>decompiled: %s</li>" % link(record.stem + ".py"))
        for entry in record.entries:
            out.append("<li>entry %d (compile id %s): %s<ul>" % (
                entry.index, html.escape(str(entry.compile_id)), link(entry.file_name)))
            for note in recorder.notes.get(entry.compile_id or "", []):
                out.append("<li><pre>%s</pre></li>" % html.escape(note))
            for name in entry.graph_names:
                graph_files = sorted(files.stage_files(name).values())
                out.append("<li>%s: %s</li>" % (
                    html.escape(name), ", ".join(link(f) for f in graph_files)))
            out.append("</ul></li>")
        out.append("</ul>")
    out.append("</body></html>")
    return "\n".join(out)
