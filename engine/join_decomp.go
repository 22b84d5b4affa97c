package engine

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/tvla-go/tvla/abstraction"
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/model"
	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/tvl"
)

// JoinDecompose is graph decomposition, TVLA 3's decomposing engine
// (tvla.engine.type = dtvla; docs/decomposition.md): a location keeps,
// per %dname, components of the structures that reach it, joined
// partially among the components of the same name (the marker
// dname[NAME] is a nullary abstraction predicate, which the partial join
// keeps apart), and forgets which component of one name went with which
// of another. An action runs on the composition (abstraction.Compose) of
// one stored component of each name a disjunct of its %compose
// designates, over every combination the location holds, and on each
// component of a name no disjunct designates alone; its results are cut
// into components again (abstraction.Decompose): always for a component
// alone, for a composition when the action says %decompose (without it
// the composed structures are stored as they are).
const JoinDecompose = "decomp"

type decomposing struct {
	partial
	comps   []abstraction.Component
	outside *tvl.Pred
	plans   map[*model.Action]*composePlan
	// sym is the symmetry of the program's %pset members, nil without
	// (join_decomp_sym.go).
	sym *symmetry
	// names holds, per location, the name of each slot of its set (an
	// index of comps; -1 for a composed structure, of several names).
	names map[string][]int
	// coercers are, per set of names composed (its key, namesKey), the
	// constraints Coerce enforces on their compositions when some are
	// left out (composeCoercer); no entry: all of them.
	coercers map[string]*abstraction.Coercer
	// shareCtx is, per edge of the current iteration, what shareTasks
	// needs to make more of its compositions (join_decomp_meet.go).
	shareCtx map[*model.Edge]*shareCtx
}

func (d *decomposing) prepare(e *Engine) error {
	if len(e.prog.DecompNames) == 0 {
		return fmt.Errorf("graph decomposition needs %%dname declarations: the program declares none")
	}
	voc := e.voc.Tvl()
	d.outside = voc.Lookup("outside")
	// TVLA 3's Focus of a conjunction (abstraction.ConjunctionFocus):
	// linearization_nbq's nbq_opt focuses tr_scheduled(tr) & at[l](tr) &
	// trnm(tr), and splits tr_scheduled on a thread not at l too.
	e.actionOptions.FocusSequence = func(f logic.Formula) []logic.Formula {
		return abstraction.ConjunctionFocus(f, func(name string) bool {
			p := e.voc.Lookup(name)
			return p != nil && p.Props.Unique
		})
	}
	for _, n := range e.prog.DecompNames {
		c, err := abstraction.NewComponent(n.Name, n.Marker.Pred, n.Formula, n.Var, voc)
		if err != nil {
			return fmt.Errorf("%s: %%dname %s: %w", n.Origin, n.Name, err)
		}
		d.comps = append(d.comps, c)
	}
	sym, err := newSymmetry(e.prog, voc)
	if err != nil {
		return err
	}
	d.sym = sym
	if sym != nil {
		sym.fixNames(d.comps)
	}
	d.plans = map[*model.Action]*composePlan{}
	d.coercers = map[string]*abstraction.Coercer{}
	if err := d.aloneCoercers(e); err != nil {
		return err
	}
	for _, a := range e.prog.Actions {
		p, err := d.plan(e.prog, a)
		if err != nil {
			return fmt.Errorf("%s: action %s: %w", a.Origin, a.Title, err)
		}
		d.plans[a] = p
		for _, names := range p.disjuncts {
			if err := d.composeCoercer(e, names); err != nil {
				return err
			}
		}
	}
	return nil
}

// composeCoercer compiles, for the compositions of names (indices of
// d.comps), a Coercer without the constraints that read a predicate
// every one of the names hides (abstraction.Component.Hidden), when
// there are such constraints. Observed on the reference: with thread
// names t1, t2, t3 whose %dname formulas are t(v) & !o(v) for the
// others, and the constraints t(v) ==> !o(v) and A(v) !t3(v) ==> 0, the
// composition of t1 and t2 without an individual for the nodes outside
// both (no t3 thread) is kept, and the action runs on it (a message is
// raised on it); when t2's formula does not mention t3, it is dropped.
// linearization/cons and prod (bounded) raise half their messages on
// such compositions.
func (d *decomposing) composeCoercer(e *Engine, names []int) error {
	return d.coercerWithout(e, namesKey(names), names, func(predicates.Constraint) bool { return true })
}

// coercerWithout makes the coercers' entry key: a Coercer without the
// constraints that read a predicate every one of names hides and that
// drop says to leave out; nil when none is left out.
func (d *decomposing) coercerWithout(e *Engine, key string, names []int, drop func(predicates.Constraint) bool) error {
	if _, done := d.coercers[key]; done {
		return nil
	}
	hidden := map[string]bool{}
	for _, p := range d.comps[names[0]].Hidden {
		hidden[p.Name] = true
	}
	for _, n := range names[1:] {
		in := map[string]bool{}
		for _, p := range d.comps[n].Hidden {
			in[p.Name] = hidden[p.Name]
		}
		hidden = in
	}
	var kept []predicates.Constraint
	for _, c := range e.constraints {
		if !readsAny(c, hidden) || !drop(c) {
			kept = append(kept, c)
		}
	}
	if len(kept) == len(e.constraints) {
		d.coercers[key] = nil
		return nil
	}
	c, err := abstraction.NewCoercer(e.voc.Tvl(), kept)
	if err != nil {
		return err
	}
	d.coercers[key] = c
	return nil
}

// readsAny reports whether constraint c reads a predicate of set (true
// in it).
func readsAny(c predicates.Constraint, set map[string]bool) bool {
	for _, f := range []logic.Formula{c.Body, c.Head, c.Plain} {
		if f == nil {
			continue
		}
		for _, p := range logic.Preds(f) {
			if set[p] {
				return true
			}
		}
	}
	return false
}

// namesKey is the key of a set of names (sorted indices).
func namesKey(names []int) string { return string(appendInts(nil, names)) }

// appendInts appends the numbers of xs to b, each followed by a space: a
// map key built without fmt, which the task loop calls for every
// combination of components (fmt.Sprint took an eighth of
// linearization_tlq/unbounded's CPU).
func appendInts(b []byte, xs []int) []byte {
	for _, x := range xs {
		b = strconv.AppendInt(b, int64(x), 10)
		b = append(b, ' ')
	}
	return b
}

// coercerFor is w's Coercer for the compositions of names: its own fork
// of the one composeCoercer made, or w.coerce when it leaves nothing
// out (or was not made).
func (d *decomposing) coercerFor(w *worker, names []int) *abstraction.Coercer {
	return d.coercerByKey(w, namesKey(names))
}

// coercerByKey is coercerFor for the coercers' entry key.
func (d *decomposing) coercerByKey(w *worker, key string) *abstraction.Coercer {
	c := d.coercers[key]
	if c == nil {
		return w.coerce
	}
	if w.forks == nil {
		w.forks = map[string]*abstraction.Coercer{}
	}
	f := w.forks[key]
	if f == nil {
		f = c.Fork()
		w.forks[key] = f
	}
	return f
}

// explore is the worklist over components: the inputs decomposed at the
// entry; then, per pending component and outgoing edge, the action on
// its compositions with the components of the other names stored at the
// location (or on it alone).
func (d *decomposing) explore(ctx context.Context, st *state, inputs []*tvl.Structure) (*Result, error) {
	e := st.e
	d.names = map[string][]int{}
	if len(e.prog.Locations) == 0 {
		return st.result("", false), nil
	}
	entry := e.prog.Locations[0]
	for i, in := range inputs {
		d.seed(st, entry, i, in.Clone())
	}
	work := map[string]bool{entry: true}
	for len(work) > 0 {
		if err := ctx.Err(); err != nil {
			return st.result(StopReason(ctx), true), nil
		}
		loc := st.next(work)
		delete(work, loc)
		st.stats.Iterations++
		st.clock++
		st.maybeSpill(true)
		pending := st.sets[loc].TakePending()
		tasks := d.tasks(st, loc, pending)
		if decompTrace || decompTraceIterations {
			d.traceIteration(st, loc, pending, len(tasks))
		}
		if r, err := d.runIteration(ctx, st, tasks, work); r != nil || err != nil {
			return r, err
		}
		if st.stats.Iterations%64 == 0 {
			st.progress(work)
		}
	}
	return st.result("", false), nil
}

// seed stores input i's components at the entry. The input is not
// coerced, as the reference's dtvla engine does not coerce it: it stores
// the components of an input that breaks a constraint (which its classic
// engine reports inconsistent and drops) and keeps a value Coerce would
// sharpen (engine/join_decomp_breach_test.go); set_pldi08/cas/nolin/g's
// input is such an input.
func (d *decomposing) seed(st *state, entry string, i int, s *tvl.Structure) {
	st.stats.Inputs++
	var slots []int
	for _, c := range d.decompose(st.e, s, d.comps) {
		slot, _ := st.sets[entry].Add(d.canonical(st.e, c))
		slots = append(slots, slot)
	}
	st.arrivals.add(entry, slotRef{slot: -1}, "", slots)
}

// decompose cuts s into the components of names, blurred and frozen.
func (d *decomposing) decompose(e *Engine, s *tvl.Structure, names []abstraction.Component) []*tvl.Structure {
	s = s.Clone()
	for u := range s.Size() {
		s.Set(d.outside, logic.False, u)
	}
	// %decompose p(v) <-> ψ may cut into a name that was not composed
	// (RtoG: R's component alone into G): no marker of the structure
	// the action ran on is kept.
	for _, c := range d.comps {
		s.Set(c.Marker, logic.False)
	}
	var out []*tvl.Structure
	for _, c := range abstraction.Decompose(s, names, d.outside, d.options(e)) {
		b, _ := abstraction.Blur(c, e.abs)
		b.Freeze()
		out = append(out, b)
	}
	return out
}

// refreshNames brings d.names[loc], the name of each slot of loc's set
// (an index of d.comps, or -1 for a composed structure), up to date
// with the set.
func (d *decomposing) refreshNames(st *state, loc string) {
	known := d.names[loc]
	set := st.sets[loc]
	for i := len(known); i < set.Len(); i++ {
		known = append(known, d.markerOf(set.current(i)))
	}
	d.names[loc] = known
}

// markerOf is the one name whose marker s has at 1, or -1.
func (d *decomposing) markerOf(s *tvl.Structure) int {
	name := -1
	for i, c := range d.comps {
		if s.Get(c.Marker) == logic.True {
			if name >= 0 {
				return -1
			}
			name = i
		}
	}
	return name
}

// tasks are the applications of an iteration at loc: per edge and
// pending component (each image of it under the %pset's permutations,
// for a member's action), its compositions by each disjunct that
// designates its name, with every combination of stored components of
// the disjunct's other names, their images included (each combination
// once), or the component alone when no disjunct designates its name.
func (d *decomposing) tasks(st *state, loc string, pending []Pending) []task {
	set := st.sets[loc]
	byName := d.entries(st, loc)
	d.shareCtx = map[*model.Edge]*shareCtx{}
	k := d.orbitSize()
	var tasks []task
	revealed := map[*tvl.Structure]*tvl.Structure{}
	members := abstraction.NewMembershipCache()
	for _, ed := range st.out[loc] {
		act := st.e.actions[ed.Action]
		plan := d.plans[ed.Action]
		seen := map[string]bool{}
		done := map[int]bool{}
		fz := newFeasibility(revealed, members)
		d.shareCtx[ed] = &shareCtx{byName: byName, seen: seen, fz: fz}
		var now []Pending
		for _, pd := range pending {
			if pd.Slot >= 0 {
				// A slot pending twice (a version, then its join with a
				// later arrival) runs once, as it is now.
				if done[pd.Slot] {
					continue
				}
				done[pd.Slot] = true
				pd.Structure = set.current(pd.Slot)
			}
			pd.unpack(st.e.voc.Tvl())
			now = append(now, pd)
		}
		for _, pd := range d.byName(now) {
			for j, img := range d.pendingImages(st.e, ed.Action, pd.Structure) {
				p := pd
				p.Structure = img
				tasks = d.appendTasks(tasks, st, task{loc: loc, edge: ed, act: act, pending: p}, plan, pd.Slot*k+j, byName, seen, fz, nil)
			}
		}
		if d.sym == nil || len(ed.Action.PSets) == 0 {
			continue
		}
		tasks = append(tasks, d.memberInstanceTasks(st, loc, ed, act, plan, now, byName)...)
	}
	return tasks
}

// appendTasks appends base's applications: its pending component
// (entry id) alone, or composed by every disjunct that designates its
// name with every combination of the disjunct's other names' entries;
// with only, those whose names only accepts.
func (d *decomposing) appendTasks(tasks []task, st *state, base task, plan *composePlan, id int, byName [][]symEntry, seen map[string]bool, fz feasibility, only func([]int) bool) []task {
	n := d.markerOf(base.pending.Structure)
	base.disjunct, base.ids = -1, []int{id}
	if n >= 0 && plan.alone[n] && (only == nil || only([]int{n})) {
		alone := base
		alone.names = []int{n}
		tasks = append(tasks, alone)
	}
	if n < 0 || !plan.involved[n] {
		if n >= 0 {
			base.names = []int{n}
		}
		if only != nil && !only(base.names) {
			return tasks
		}
		return append(tasks, base)
	}
	for di, names := range plan.disjuncts {
		at := slices.Index(names, n)
		if at < 0 || only != nil && !only(names) {
			continue
		}
		tasks = d.comboTasks(tasks, st, base, plan, di, at, symEntry{base.pending.Structure, id}, byName, seen, fz)
	}
	return tasks
}

// apply composes the task's components (or opens the one alone), runs
// the action on each consistent composition, and cuts the results into
// components again.
func (d *decomposing) apply(w *worker, t task) outcome {
	return d.applyRaw(w, t, false)
}

// applyRaw is apply; raw leaves the results as they are, not renamed to
// their orbit's representative (the unframing of join_decomp_frame.go
// meets them with a composition's parts as they are).
func (d *decomposing) applyRaw(w *worker, t task, raw bool) outcome {
	var o outcome
	canonical := func(s *tvl.Structure) *tvl.Structure {
		if t.perm > 0 {
			s = d.sym.image(w.e, s, t.perm-1)
		}
		if raw {
			return s
		}
		return d.canonical(w.e, s)
	}
	if t.names == nil {
		// A composed structure stored as it is: the action runs on it
		// as on a whole heap.
		return w.applyAbstract(t, splittingFocus{})
	}
	parts := t.parts
	if parts == nil {
		parts = []*tvl.Structure{t.pending.Structure}
	}
	names := make([]abstraction.Component, len(t.names))
	for i, n := range t.names {
		names[i] = d.comps[n]
	}
	plan := d.plans[t.act.Source()]
	keep := w.keepMsg
	framed := false
	w.keepMsg = func(m *model.Message) bool {
		if m.Compose == nil {
			return true
		}
		return !framed && slices.Equal(plan.msgNames[m.Compose], t.names)
	}
	defer func() { w.keepMsg = keep }()
	all := w.coerce
	w.coerce = d.coercerFor(w, t.names)
	if t.parts == nil {
		w.coerce = d.aloneCoercer(w, t.names[0])
	}
	defer func() { w.coerce = all }()
	var comps []*tvl.Structure
	var skips []func(*tvl.Pred, []int) bool
	var fr map[int]*frame
	var alone map[int][]*tvl.Structure
	if t.parts == nil {
		// A component alone: Focus leaves what opening it made unknown
		// as it is (openedTuples).
		for _, c := range abstraction.ComposeMatched(parts, names, d.outside, d.options(w.e)) {
			comps = append(comps, c.Structure)
			skips = append(skips, openedTuples(names[0], c))
		}
	} else {
		cparts, cnames, frs, al, ok := d.framedParts(w, t, parts, names, &o)
		if !ok {
			return o
		}
		fr, alone, framed = frs, al, frs != nil
		for _, c := range abstraction.ComposeMatched(cparts, cnames, d.outside, d.options(w.e)) {
			if len(sharedOnly([]abstraction.Composed{c}, t.shared)) == 0 || d.withoutOutside(w.e, c) {
				continue
			}
			comps = append(comps, c.Structure)
			skips = append(skips, outsideAll(c))
		}
	}
	if decompTrace {
		traceCompositions(t, parts, comps)
	}
	for ci, c := range comps {
		r := w.coerce.Coerce(c, nil)
		o.stats.Breaches += r.Breaches
		if !r.Consistent {
			continue
		}
		c.Freeze()
		sub := t
		sub.pending.Structure = c
		var sf splittingFocus
		if skips != nil {
			sf.skip = skips[ci]
		}
		so := w.applyAbstract(sub, sf)
		o.messages = append(o.messages, so.messages...)
		o.stats.add(so.stats)
		if so.err != nil {
			o.err = so.err
			return o
		}
		if so.broken != "" && o.broken == "" {
			o.broken = so.broken
		}
		if decompTrace {
			traceResults(t, so.results)
		}
		for _, res := range so.results {
			for _, c := range d.cutResult(w, t, plan, names, fr, alone, res) {
				o.names = append(o.names, d.markerOf(c))
				o.results = append(o.results, canonical(c))
			}
		}
		if o.broken != "" {
			// A breach after the update stops the run at the structure
			// that breached, as it does under the classic engine: the
			// task's later compositions are not applied (the reference
			// raises set_pldi08/dcas's one message this way, not two).
			return o
		}
	}
	return o
}

// cutResult cuts a result of the action into components: into the
// target name of a %decompose φ only, or as cut does.
func (d *decomposing) cutResult(w *worker, t task, plan *composePlan, names []abstraction.Component, fr map[int]*frame, alone map[int][]*tvl.Structure, res *tvl.Structure) []*tvl.Structure {
	if plan.into != nil && (len(names) == 1 || plan.decompose) {
		return d.decompose(w.e, res, d.named(plan.into))
	}
	return d.cut(w, t, names, plan.decompose, fr, alone, res)
}

// traceCompositions prints (TVLA_DECOMP_TRACE) a task's parts and the
// compositions made of them.
func traceCompositions(t task, parts, comps []*tvl.Structure) {
	var b strings.Builder
	fmt.Fprintf(&b, "### %s at %s: %d parts -> %d compositions\n", t.act.Source().Title, t.loc, len(parts), len(comps))
	for i, p := range parts {
		fmt.Fprintf(&b, "part %d:\n", i)
		p.WriteTVS(&b, "  ")
	}
	for i, c := range comps {
		fmt.Fprintf(&b, "composition %d:\n", i)
		c.WriteTVS(&b, "  ")
	}
	os.Stderr.WriteString(b.String())
}

// traceResults prints (TVLA_DECOMP_TRACE) the results of an action on
// one composition.
func traceResults(t task, results []*tvl.Structure) {
	var b strings.Builder
	fmt.Fprintf(&b, "results of %s at %s: %d\n", t.act.Source().Title, t.loc, len(results))
	for _, res := range results {
		res.WriteTVS(&b, "  ")
	}
	os.Stderr.WriteString(b.String())
}

// add adds another application's breaches and times.
func (p *phaseStats) add(q phaseStats) {
	p.Breaches += q.Breaches
	p.FocusTime += q.FocusTime
	p.CoerceTime += q.CoerceTime
	p.UpdateTime += q.UpdateTime
	p.BlurTime += q.BlurTime
}

// named are the components of names (indices of d.comps).
func (d *decomposing) named(names []int) []abstraction.Component {
	out := make([]abstraction.Component, len(names))
	for i, n := range names {
		out[i] = d.comps[n]
	}
	return out
}

// options are the engine's decomposition options.
func (d *decomposing) options(e *Engine) abstraction.DecomposeOptions {
	return abstraction.DecomposeOptions{KeepBinary: e.opts.DecomposeKeepBinary}
}

// decompTrace (TVLA_DECOMP_TRACE set to anything but "iterations")
// prints to stderr, per application, the parts composed, the
// compositions and the action's results, as TVS: how the structures the
// reference prints were compared with ours location by location
// (docs/decomposition.md). TVLA_DECOMP_TRACE=iterations prints only a
// line per iteration (decompTraceIterations).
var (
	decompTrace           = os.Getenv("TVLA_DECOMP_TRACE") != "" && os.Getenv("TVLA_DECOMP_TRACE") != "iterations"
	decompTraceIterations = os.Getenv("TVLA_DECOMP_TRACE") == "iterations"
)

// traceIteration prints, under TVLA_DECOMP_TRACE, the iteration's
// location, how many components it stores and has pending (distinct
// slots; a slot pending twice counts once), the applications, and the
// count of components stored at every location.
func (d *decomposing) traceIteration(st *state, loc string, pending []Pending, tasks int) {
	slots := map[int]bool{}
	for _, p := range pending {
		slots[p.Slot] = true
	}
	var b strings.Builder
	fmt.Fprintf(&b, "## iteration %d at %s (%d stored): %d pending, %d applications; stored:", st.stats.Iterations, loc, st.sets[loc].Len(), len(slots), tasks)
	for _, l := range st.e.prog.Locations {
		if n := st.sets[l].Len(); n > 0 {
			fmt.Fprintf(&b, " %s=%d", l, n)
		}
	}
	b.WriteString("\n")
	os.Stderr.WriteString(b.String())
}

// openedTuples says which tuples of c, a component of name opened alone
// (composed with nothing), opening made unknown rather than the
// component: those of the name's hidden predicates, and those that
// involve its outside individual (outsideAll). Focus leaves them at
// 1/2, and with them every assignment under which a focus formula is
// 1/2 through one of them (abstraction.Focuser.WithSkip), as TVLA 3's
// dtvla engine does (observed on programs of ours,
// engine/join_decomp_alone_test.go): an update reads them as 1/2.
// Splitting them made linearization_tlq/unbounded's
// new_head = node.n, applied to a locks component alone, give a thread
// the hidden r_by[new_head,t1] at 1, which breaches a constraint and
// stopped the run; the reference goes on to 3,415 components.
func openedTuples(name abstraction.Component, c abstraction.Composed) func(*tvl.Pred, []int) bool {
	hidden := map[*tvl.Pred]bool{}
	for _, p := range name.Hidden {
		hidden[p] = true
	}
	out := outsideAll(c)
	return func(p *tvl.Pred, args []int) bool {
		return hidden[p] || out(p, args)
	}
}

// outsideAll says which tuples of c involve its individual outside
// every part composed (a component alone's outside individual, a
// composition's further individual), binary values kept as joins under
// tvla.decompose.outside.keepBinary included: Focus leaves them as
// openedTuples says. On a composition it still splits the other values
// the parts do not record (a predicate every part hides, or that one
// hides and the others hold in their outside individuals), as the
// reference does (engine/join_decomp_alone_test.go).
func outsideAll(c abstraction.Composed) func(*tvl.Pred, []int) bool {
	out := -1
	for a, t := range c.Tuples {
		if !slices.ContainsFunc(t, func(u int) bool { return u >= 0 }) {
			out = a
		}
	}
	return func(_ *tvl.Pred, args []int) bool {
		return out >= 0 && slices.Contains(args, out)
	}
}
