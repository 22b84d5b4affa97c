// Package cpp is the C-style preprocessor that TVLA runs over .tvp and
// .tvs files before lexing. It works in the usual phases: line splicing
// (backslash-newline), comment removal (comments become spaces, line
// breaks stay), directives, then macro expansion over preprocessing
// tokens. The result, a Preprocessed, is the expanded text together with
// a source map: every byte maps back to a file, line and column that the
// user wrote, so that errors found later by the TVP and TVS parsers point
// into the original files.
//
// It is a package of its own because it is a language of its own, with
// its own tokens, directives and #if expression grammar. It shares nothing
// with the TVP parser but positions and errors (Pos and Error, which
// package tvp re-exports), and it is tested and fuzzed on its own.
//
// Decisions, where TVLA 3 (which uses IBM's cprep library) and C differ:
//
//   - Macro recursion. A macro is not re-expanded inside its own expansion
//     (C), so `#define x x` leaves x, as TVLA does. A cycle through two or
//     more different macros (FOO -> BAR -> FOO), on which TVLA loops
//     forever, is an error at the invocation. Every token carries the
//     chain of macros whose expansion produced it; meeting a macro already
//     on the chain is an error unless it is the last link (the macro
//     naming itself).
//   - #elseif. TVLA reads it as #else and ignores anything after it (so a
//     later #else flips the condition once more). Here #elseif alone is
//     #else; #elseif EXPR is read as #elif EXPR, with a warning.
//   - #warning text adds a warning (TVLA passes the line through and its
//     parser then fails on the '#').
//   - Unknown directives and #error are errors (TVLA passes them through).
//   - Undefined identifiers in #if are 0 (C; TVLA hangs on them).
//   - ## pastes (TVLA drops the ## and keeps a space when the operands are
//     written with spaces around it; `li_##TN` works alike in both).
//   - Brackets do not group macro arguments: F(r[n,x]) passes two
//     arguments, as in C and TVLA.
//   - A function-like macro name not followed by '(' is left alone (C;
//     TVLA reports an error).
//   - Macro names and parameters are C tokens: {var}, x|y, !a&b expand var,
//     x, y, a, b. TVLA glues { } | & : = ? ^ ~ to words, so that in TVLA
//     `#define IF_IN_SET(var, set) foreach (dummy in {var} & set)` keeps
//     {var} unsubstituted (examples IF_IN_SET, LastInterruption).
//   - Words: '$' is an identifier character, '.' is not (a.c expands a),
//     and a '%' that does not follow a word character sticks to the word
//     after it, so %p is never expanded by a macro p (as in TVLA). After a
//     macro expansion a space is inserted when the next character would
//     otherwise run into the expansion's last word (TVLA: a.c gives b .c).
//   - #include "f" searches the including file's folder, then the search
//     path; #include <f> the same. (TVLA resolves names against its working
//     folder.)
package cpp
