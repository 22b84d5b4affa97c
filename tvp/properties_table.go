package tvp

// What tvla does with each property TVLA 3 documents: the keys of the
// tvla.properties file of its distribution, where each is explained, and
// tvla.parser.externalMacros, which that file names and the examples
// use. docs/properties.md is the same table for users.

// propertyUse says how a documented property is taken.
type propertyUse uint8

const (
	// honoured: read into Properties and acted on (interpretProperties).
	honoured propertyUse = iota
	// defaultOnly: it changes the analysis, and only the values listed
	// (TVLA's default, or values that mean the same) are supported; any
	// other is refused with an error.
	defaultOnly
	// noEffect: output files, logging, progress, diagnostics; no effect
	// on what is computed. A file that sets one is told so.
	noEffect
)

// documentedProperty is one documented key: how it is used, and for
// defaultOnly the values accepted (compared as written, booleans in any
// case) and why others are not.
type documentedProperty struct {
	use    propertyUse
	accept []string
	why    string
}

func fixed(why string, accept ...string) documentedProperty {
	return documentedProperty{use: defaultOnly, accept: accept, why: why}
}

var (
	keep    = documentedProperty{use: honoured}
	outputs = documentedProperty{use: noEffect}
)

// documentedProperties lists every key of TVLA 3's tvla.properties.
var documentedProperties = map[string]documentedProperty{
	// Honoured.
	"tvla.joinType":                              keep,
	"tvla.engine.actionOrder":                    keep,
	"tvla.engine.maxStructures":                  keep,
	"tvla.engine.maxMessages":                    keep,
	"tvla.engine.breakIfCoerceAfterUpdateFailed": keep,
	"tvla.differencing.difference":               keep,
	"tvla.parser.externalMacros":                 keep,
	"tvla.parser.searchPath":                     keep,
	"tvla.engine.freezeStructuresWithMessages":   fixed("structures with messages are always propagated here", "false"),
	"tvla.engine.type":                           keep,
	"tvla.decompose.outside.keepBinary":          keep,
	"tvla.decompose.outside.merge":               keep,
	// Not in tvla.properties, but set by the reference's examples
	// (set_pldi08/cas/nolin/g) and read by TVLA 3: false drops the
	// "Closed cycle for acyclic predicate" messages.
	"tvla.differencing.messageForCloseCycle": keep,
	// The same (set_pldi08/cas/nolin/g): true runs an action only on the
	// compositions with an individual outside all their parts.
	"tvla.decompose.mustOutside":                     keep,
	"tvla.engine.autoResolveType":                    fixed("the engine is never chosen by file extension here", "true", "false"),
	"tvla.engine.checkMessagesAtFixpoint":            fixed("messages are checked as actions apply", "false"),
	"tvla.implementation":                            fixed("the functional implementation is not reproduced (TVLA 3's own fails to run)", "base"),
	"tvla.generateAutomaticConstraints":              fixed("automatic constraints are always generated", "true"),
	"tvla.blur.threeWay":                             fixed("Blur always merges individuals with the same definite abstraction values", "true"),
	"tvla.cfg.backwardAnalysis":                      fixed("backward analysis is not implemented", "false"),
	"tvla.cfg.saveLocations":                         fixed("every location stores its structures", "all"),
	"tvla.cfg.postOrder":                             fixed("locations are visited in reverse post order", "false"),
	"tvla.absRef.refine":                             fixed("abstraction refinement is not implemented", "false"),
	"tvla.absRef.constructInitialStructures":         fixed("abstraction refinement is not implemented", "false"),
	"tvla.absRef.dataStructureConstructor":           fixed("abstraction refinement is not implemented", ""),
	"tvla.absRef.emptyStructureTVS":                  fixed("abstraction refinement is not implemented", ""),
	"tvla.differencing.differenceIdForms":            fixed("instrumentation predicates without an update formula are always differenced (with differencing on)", "true"),
	"tvla.differencing.differenceNonIdForms":         fixed("update formulas a program gives are always used", "false"),
	"tvla.differencing.implementation":               fixed("finite differencing expands every formula (ESOP'03)", "expandedFuture"),
	"tvla.differencing.expandPredicateFormulaFuture": fixed("finite differencing uses the update formula of a predicate it reads", "false"),
	"tvla.differencing.simplify":                     fixed("derived formulas are always simplified", "true"),
	"tvla.differencing.simplifyUpdate":               fixed("derived formulas are always simplified", "true"),
	"tvla.differencing.tight":                        fixed("only the tight deltas are implemented", "true"),
	"tvla.differencing.substituteDeltas":             fixed("deltas are always replaced by the predicates defined by them", "true"),
	"tvla.simplify.nonEmptyStructs":                  fixed("simplification never assumes a non-empty universe", "false"),
	"tvla.formulae.alphaRenamingEquals":              fixed("formulas equal up to renaming of bound variables are equal", "true"),
	"tvla.td.enabled":                                fixed("termination analysis is not implemented", "false"),
	"tvla.td.dot":                                    outputs,
	// No effect on results.
	"tvla.terse": outputs, "tvla.debug": outputs, "tvla.emitWarnings": outputs, "tvla.printExceptionStackTrace": outputs,
	"tvla.log.logFileName": outputs, "tvla.log.implementationSpecificStatistics": outputs,
	"tvla.log.addPropertiesToLog": outputs, "tvla.log.addSystemPropertiesToLog": outputs,
	"tvla.log.detailedPredicateStatistics": outputs, "tvla.log.canonicNamesStatistics": outputs,
	"tvla.log.dumpCanonicNames": outputs, "tvla.log.continuousStatisticsReports": outputs,
	"tvla.engine.dumpEvery": outputs, "tvla.engine.autoGC": outputs, "tvla.engine.statisticsEvery": outputs,
	"tvla.spaceStatistics.every": outputs, "tvla.absRef.debug": outputs, "tvla.absRef.verbose": outputs,
	"tvla.differencing.debug": outputs, "tvla.differencing.logging": outputs,
	"tvla.differencing.warnAboutUniverseChangingActionsOnce": outputs,
	"tvla.output.redirectToDirectory":                        outputs, "tvla.output.absoluteDirectory": outputs,
	"tvla.output.subDirectory": outputs, "tvla.output.multipleOutputFiles": outputs, "tvla.output.root": outputs,
	"tvla.tvs.subDirectory": outputs, "tvla.dot.subDirectory": outputs, "tvla.log.logSubDirectory": outputs,
	"tvla.predicateDisplay": outputs, "tvla.dot.enabled": outputs, "tvla.dot.fileSuffix": outputs,
	"tvla.dot.outputFile": outputs, "tvla.dot.messagesFile": outputs, "tvla.dot.meaningfulTitles": outputs,
	"tvla.dot.rotate": outputs, "tvla.dot.nullaryStyle": outputs, "tvla.dot.pageAttributes": outputs,
	"tvla.dot.cfgAttributes": outputs, "tvla.dot.structureAttributes": outputs, "tvla.dot.pointerAttributes": outputs,
	"tvla.tvs.outputFile": outputs, "tvla.tvs.messagesFile": outputs, "tvla.tvs.enabled": outputs,
	"tvla.tvs.tvla091BackwardCompatibility": outputs,
	"tvla.xml.outputFile":                   outputs, "tvla.xml.messagesFile": outputs, "tvla.xml.enabled": outputs, "tvla.xml.fileSuffix": outputs,
	"tvla.tr.enabled": outputs, "tvla.tr.posthoc": outputs, "tvla.tr.dynamic": outputs, "tvla.tr.tvs.enabled": outputs,
	"tvla.tr.dot.enabled": outputs, "tvla.tr.tvs.outputFile": outputs, "tvla.tr.dot.outputFile": outputs,
	"tvla.tr.xml.outputFile":      outputs,
	"tvla.flik.canonizationLevel": outputs, // of the functional implementation, which is refused
	"tvla.pasta.maxEvents":        outputs, // of the pasta engine, which is refused
}

// outputPrefixes are families of documented keys with no effect on
// results (display attributes per predicate).
var outputPrefixes = []string{"tvla.dot.predicateAttributes."}
