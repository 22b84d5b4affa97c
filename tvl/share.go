package tvl

// CopyPred gives s the interpretation of p that from has. Both must have
// the same number of individuals. A frozen from shares a binary table
// (copied on s's first write), so this costs a pointer; a unary one is a
// word or two, copied.
func (s *Structure) CopyPred(p *Pred, from *Structure) {
	s.mustWrite()
	if s.voc != from.voc || s.n != from.n {
		panic("tvl: CopyPred between structures of different universes")
	}
	share := func(t *table) *table {
		if from.tok == 0 {
			return t
		}
		return &table{val: append([]uint64(nil), t.val...), half: append([]uint64(nil), t.half...), owner: s.tok}
	}
	switch p.Arity {
	case 0:
		s.nullary[p.Index] = from.nullary[p.Index]
	case 1:
		s.writableUnary()
		copy(s.unaryVal(p.Index), from.unaryVal(p.Index))
		copy(s.unaryHalf(p.Index), from.unaryHalf(p.Index))
	case 2:
		s.binaryTables()[p.Index] = share(from.binary[p.Index])
	default:
		t := from.kary[p.Arity][p.Index]
		if from.tok != 0 {
			c := &karyTable{vals: make(map[TupleKey]Kleene, len(t.vals)), owner: s.tok}
			for k, v := range t.vals {
				c.vals[k] = v
			}
			t = c
		}
		s.kary[p.Arity][p.Index] = t
	}
}
