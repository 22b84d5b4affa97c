// Package viz draws what an analysis found the way people read abstract
// heaps: as graphs, in the style of the figures of Lev-Ami's thesis and of
// TVLA's own DOT output.
//
// StructureGraph turns one three-valued structure into a Graphviz graph
// (built with github.com/emicklei/dot): individuals are nodes labelled with
// the unary predicates that hold on them (true ones by name, then p=1/2);
// summary individuals have a double border; binary predicates are labelled
// edges, solid for 1 and dotted for 1/2; unary predicates declared pointer
// or box are drawn as a name with an arrow to the individuals they hold on;
// nullary predicates (and any of arity three or more) go in a table under
// the title. A sort predicate, when the program has one, picks the node
// shape: threads (isthread, is_thread, thread) are hexagons, data values
// (is_data, isdata, data) boxes, everything else circles. DrawStructure
// draws the same with options: FoldThreadPredicates leaves a thread's soft
// invariants (if[...], nif[...], ifc[...]; a collapsed thread carries
// dozens) out of its node, which counts them and lists them in its
// tooltip, and returns them; the views (SVG files and the report) draw
// so, WriteDOT lists everything.
//
// CFGGraph draws the control-flow graph with the number of structures and
// messages per location. WriteDOT writes a run TVLA-style: the CFG, then
// every structure of every location (and each message's structure), one
// digraph after another.
//
// Rendering to SVG goes through Graphviz's dot program, found on PATH
// (DotPath): RenderSVG renders one DOT text, RenderSVGs many, in batches on
// parallel workers with a progress callback. Render prepares every picture
// of a run — the CFG, the structures per location, each message's structure
// and the steps of its abstract trace — and the Views it returns are
// written as a folder of SVG files (WriteSVGDir) or as one self-contained
// HTML report (WriteHTML: inline SVG, CSS and script, no network). The
// report links the CFG's locations to their galleries and each message to
// its trace, every step of a trace drawn in one frame (the largest
// step's size) so that the pictures stay in place, and in one layout
// (layout.go: the union of the steps' graphs laid out once by dot, each
// step drawn at those places by neato -n2) so that an individual that
// persists from step to step keeps its place; a thread's folded
// soft invariants are a closed table under its picture; the header says
// whether the run reached its fixpoint, stopped at a message or stopped
// early and why. j/k (or the arrow keys) step through the structures, n/p
// through the sections, z enlarges the current structure, ? lists the
// keys, and the address names the structure selected (#fig-NAME).
//
// Output is deterministic: the same result gives the same bytes.
package viz
