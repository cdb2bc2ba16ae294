"""index.html: the page a dump opens with.  Per compiled function, each
cache entry: its transformed code, its guards (those torch lists, linked
to the guard function in full_code_for_<fn>.py), graph-break and
recompile reasons, the resume functions it calls, compile time per phase
(from torch's compilation metrics), its graphs by stage and the kernels of
each Inductor module.  Links read as what they show ("f · entry 0 ·
captured graph"); the file name is their title.  Plain static HTML: no
script, no resource from outside the dump."""

from __future__ import annotations

import functools
import html
import re
from typing import TYPE_CHECKING, List, Optional, Tuple

from . import _torch_hooks as hooks
from ._full_code import cache_entry

if TYPE_CHECKING:
    from ._recorder import Entry, Function, Recorder

# The graph files of a graph, by stage, in the order torch makes them.
STAGE_GROUPS: Tuple[Tuple[str, Tuple[Tuple[str, str], ...]], ...] = (
    ("Captured by Dynamo", (("captured_graph", "captured graph"),)),
    ("Pre-grad (Inductor's passes before AOTAutograd)", (("pre_grad_graph", "pre-grad graph"),)),
    ("AOTAutograd", (("aot_joint_graph", "AOT joint graph"),
                     ("aot_forward_graph", "AOT forward graph"),
                     ("aot_backward_graph", "AOT backward graph"),
                     ("aot_inference_graph", "AOT inference graph"))),
    ("Post-grad (Inductor's input)", (("post_grad_graph", "post-grad graph"),
                                      ("post_grad_backward_graph", "post-grad backward graph"))),
    ("Inductor output", (("inductor_forward", "Inductor forward module"),
                         ("inductor_backward", "Inductor backward module"),
                         ("inductor_inference", "Inductor inference module"),
                         ("inductor_output", "Inductor module"))),
)
_INDUCTOR_STAGES = dict(STAGE_GROUPS[-1][1])
# A kernel Inductor generates: a global of its output module made by the
# module's async_compile (cpp_pybinding on CPU, triton on GPU, ...).
_KERNEL = re.compile(r"^(\w+) = async_compile\.(\w+)\(", re.M)
# The trace events whose compile times the page shows, and what they time.
_TIMED = (("compilation_metrics", "compile of the frame"),
          ("bwd_compilation_metrics", "backward graph, compiled on its first use"))

_STYLE = """
body { font-family: sans-serif; margin: 1.5em; max-width: 75em; }
section.function { border-top: 2px solid #888; margin-top: 1.5em; }
section.entry { margin-left: 1em; border-left: 3px solid #ccc; padding-left: 1em; }
dt { font-weight: bold; margin-top: 0.5em; }
pre { background: #f4f4f4; padding: 0.4em; white-space: pre-wrap; }
table { border-collapse: collapse; }
td, th { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }
.note { color: #555; }
"""


def _e(text: object) -> str:
    return html.escape(str(text))


def _link(href: str, label: str, title: Optional[str] = None) -> str:
    return '<a href="%s" title="%s">%s</a>' % (_e(href), _e(title or href), _e(label))


def _anchor(record: "Function", entry: Optional["Entry"] = None) -> str:
    """The id of a function's section, or of one of its entries."""
    return "fn-" + record.stem + ("" if entry is None else "-entry-%d" % entry.index)


def index_html(recorder: "Recorder") -> str:
    files = recorder.files
    out = ["<!DOCTYPE html>", "<html lang='en'><head><meta charset='utf-8'>",
           "<title>unpyc: what torch.compile did</title>",
           "<style>%s</style></head><body>" % _STYLE,
           "<h1>What torch.compile did</h1>",
           "<p class='note'>unpyc rewrites this page after each compile while the block runs, "
           "and once more when it ends.  Each link is named after what it shows; its file "
           "name is its title.</p>"]
    out += _contents(recorder)
    not_emitted = [line for line in map(recorder.not_emitted, files.graph_files) if line]
    if files.problems or not_emitted:
        out.append("<h2 id='missing'>Missing from this dump</h2><ul>")
        out.extend("<li>%s</li>" % _e(p) for p in files.problems + not_emitted)
        out.append("</ul>")
    for record in recorder.functions.values():
        out += _function_section(recorder, record)
    out += _unlinked_graphs(recorder)
    out.append("</body></html>")
    return "\n".join(out)


def _contents(recorder: "Recorder") -> List[str]:
    out = ["<h2 id='contents'>Compiled functions</h2><ul>"]
    for record in recorder.functions.values():
        entries = ", ".join('<a href="#%s">entry %d</a>' % (_anchor(record, entry), entry.index)
                            for entry in record.entries)
        out.append('<li><a href="#%s">%s</a>%s: %s</li>' % (
            _anchor(record), _e(record.stem), " (resume function)" if record.is_resume else "",
            entries or "no cache entry"))
    out.append("</ul>")
    return out


def _function_section(recorder: "Recorder", record: "Function") -> List[str]:
    out = ["<section class='function' id='%s'>" % _anchor(record),
           "<h2>%s%s</h2>" % (_e(record.stem), " (resume function)" if record.is_resume else "")]
    main = recorder.main_stem(record)
    full = "full_code_for_%s.py" % main
    if (recorder.files.dump_dir / full).exists():
        shown = "start here" if main == record.stem else "shown in %s's" % main
        out.append("<p>%s: %s</p>" % (shown, _link(full, "%s · full code" % main)))
    if record.is_resume and (recorder.files.dump_dir / (record.stem + ".py")).exists():
        out.append("<p>decompiled: %s</p>" % _link(record.stem + ".py",
                                                     "%s · decompiled" % record.stem))
    listed = hooks.cache_entries(record.code) if record.entries else None
    for entry in record.entries:
        out += _entry_section(recorder, record, entry, cache_entry(entry, listed), full)
    out.append("</section>")
    return out


def _entry_section(recorder: "Recorder", record: "Function", entry: "Entry",
                   listed: Optional[hooks.CacheEntry], full: str) -> List[str]:
    name = "%s · entry %d" % (record.stem, entry.index)
    # The reasons of the compile, as Recorder._note words them.
    notes = recorder.compile_of(entry).notes
    breaks = [n[len("Graph break: "):] for n in notes if n.startswith("Graph break: ")]
    recompiles = [n[len("Recompiled because: "):] for n in notes
                  if n.startswith("Recompiled because: ")]
    out = ["<section class='entry' id='%s'>" % _anchor(record, entry),
           "<h3>%s <span class='note'>(compile id %s)</span></h3><dl>" % (
               _e(name), _e(entry.compile_id))]
    out.append("<dt>Transformed code</dt><dd>%s <span class='note'>%s</span></dd>" % (
        _link(entry.file_name, name + " · transformed code"), _e(_how_it_runs(entry))))
    out.append("<dt>Guards</dt><dd>%s</dd>" % _guards(recorder, record, entry, listed, full))
    out.append("<dt>Recompiled because</dt><dd>%s</dd>" % (
        _pre_list(recompiles) if recompiles else "no recompile reason reported"))
    out.append("<dt>Graph breaks</dt><dd>%s</dd>" % (
        _pre_list(breaks) if breaks else "none reported"))
    if entry.resume_names:
        out.append("<dt>Resume functions it calls</dt><dd><ul>%s</ul></dd>" % "".join(
            "<li>%s</li>" % _resume_link(recorder, resume) for resume in entry.resume_names))
    out.append("<dt>Compile time</dt><dd>%s</dd>" % _compile_times(recorder, entry))
    out.append("</dl>")
    for number, graph in enumerate(entry.graph_names, 1):
        label = name if len(entry.graph_names) == 1 else "%s · graph %d" % (name, number)
        out += _graph_tables(recorder, graph, label)
    if not entry.graph_names:
        out.append("<p>No graph: this entry's transformed code calls no compiled graph.</p>")
    out.append("</section>")
    return out


def _how_it_runs(entry: "Entry") -> str:
    if entry.equivalent:
        return "(decompiled; recompiles to Dynamo's bytecode)"
    if entry.runs_source:
        return "(decompiled; the same effects as Dynamo's bytecode, not the same bytecode)"
    return ("(the decompiled source is NOT equivalent to Dynamo's bytecode: the file lists "
            "that bytecode, which is what debug() runs)")


def _pre_list(items: List[str]) -> str:
    return "<ul>%s</ul>" % "".join("<li><pre>%s</pre></li>" % _e(item) for item in items)


def _guards(recorder: "Recorder", record: "Function", entry: "Entry",
            listed: Optional[hooks.CacheEntry], full: str) -> str:
    """Where the guards of entry are (the guard function _full_code
    writes), and those torch lists."""
    function = "__guard_%d_for_%s" % (entry.index, record.stem)
    if (recorder.files.dump_dir / full).exists():
        where = "%s <span class='note'>(def %s)</span>" % (
            _link(full, "%s · entry %d · guards" % (record.stem, entry.index)), _e(function))
    else:
        where = "<span class='note'>(no full_code file yet)</span>"
    if listed is None and recorder.awaits_listing(entry):
        return where + " not listed by torch yet: it adds the entry to its cache after the " \
                       "compile, and this page is rewritten when it does"
    if listed is None:
        return where + " no longer in Dynamo's cache, or torch cannot list the cache"
    return "%s<details><summary>%d guards</summary><pre>%s</pre></details>" % (
        where, len(listed.guard_parts), _e("\n".join(listed.guard_parts)))


def _resume_link(recorder: "Recorder", resume: str) -> str:
    found = recorder.resume_functions.get(resume)
    if found is None:
        return "%s <span class='note'>(not found in the globals)</span>" % _e(resume)
    # A recompile installs the resume code of an earlier compile anew.
    same = "" if found.stem == resume else " (the code of %s)" % found.stem
    decompiled = ""
    if (recorder.files.dump_dir / (resume + ".py")).exists():
        decompiled = ": " + _link(resume + ".py", resume + " · decompiled")
    return '<a href="#%s">%s</a>%s' % (_anchor(found), _e(resume + same), decompiled)


def _compile_times(recorder: "Recorder", entry: "Entry") -> str:
    timed = recorder.compile_of(entry).phase_times
    columns = [(kind, label) for kind, label in _TIMED if kind in timed]
    if not columns:
        return "not reported (torch has logged no compilation metrics for this compile)"
    rows = ["<table><tr><th>phase <span class='note'>(torch's field)</span></th>%s</tr>"
            % "".join("<th>%s</th>" % _e(label) for _, label in columns)]
    for row, phase in enumerate(timed[columns[0][0]]):
        cells = []
        for kind, _ in columns:
            seconds = timed[kind][row].seconds
            cells.append("<td>%s</td>" % ("not reported" if seconds is None
                                          else "%.3f s" % seconds))
        rows.append("<tr><td style='padding-left:%.1fem'>%s <span class='note'>(%s)</span></td>"
                    "%s</tr>" % (0.5 + 1.5 * phase.depth, _e(phase.label), _e(phase.field),
                                 "".join(cells)))
    rows.append("</table>")
    return "".join(rows)


def _graph_tables(recorder: "Recorder", graph: str, label: str) -> List[str]:
    """The files of one graph by stage, then the kernels of its Inductor
    modules."""
    files = recorder.files.stage_files(graph)
    out = ["<h4>Graphs of %s <span class='note'>(%s)</span></h4>" % (_e(label), _e(graph)),
           "<table><tr><th>stage</th><th>files</th></tr>"]
    for group, stages in STAGE_GROUPS:
        links = [_link(files[stage], "%s · %s" % (label, stage_label))
                 for stage, stage_label in stages if stage in files]
        if links:
            out.append("<tr><td>%s</td><td>%s</td></tr>" % (_e(group), "<br>".join(links)))
    out.append("</table>")
    not_emitted = recorder.not_emitted(graph)
    if not_emitted:
        out.append("<p class='note'>%s</p>" % _e(not_emitted))
    for stage, stage_label in _INDUCTOR_STAGES.items():
        if stage in files:
            out += _kernels(recorder, files[stage], "%s · %s" % (label, stage_label))
    return out


def _kernels(recorder: "Recorder", file_name: str, label: str) -> List[str]:
    source = recorder.files.inductor_module(file_name)
    if source is None:
        return []
    kernels = _kernels_in(source)
    out = ["<p>Kernels of %s: %d</p>" % (_link(file_name, label), len(kernels))]
    if kernels:
        out.append("<ol>%s</ol>" % "".join(
            "<li><code>%s</code> <span class='note'>(async_compile.%s, line %d)</span></li>"
            % (_e(name), _e(kind), line) for name, kind, line in kernels))
    return out


@functools.lru_cache(maxsize=256)
def _kernels_in(source: str) -> List[Tuple[str, str, int]]:
    """The kernels an Inductor output module defines: (name, how it is
    compiled, line).  Cached: the page is rewritten after each compile."""
    return [(match.group(1), match.group(2), source.count("\n", 0, match.start()) + 1)
            for match in _KERNEL.finditer(source)]


def _unlinked_graphs(recorder: "Recorder") -> List[str]:
    files = recorder.files
    linked = {name for record in recorder.functions.values()
              for entry in record.entries for name in entry.graph_names}
    unlinked = sorted(name for name in files.graph_files if name not in linked)
    if not unlinked:
        return []
    out = ["<h2 id='unlinked'>Graphs no dumped function calls</h2>"]
    for name in unlinked:
        short = re.sub(r"^(__compiled_fn_\d+)_.*", r"\1", name)
        out += _graph_tables(recorder, name, short)
    return out
