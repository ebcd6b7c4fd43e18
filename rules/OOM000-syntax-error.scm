; code: OOM000
; name: syntax-error
; severity: error
; message: Syntax error: this region could not be parsed as Python
; doc:
;   ## What it does
;   Reports the first region of the file that the Python parser could not
;   read. It is reported once per file, at the start of that region; the
;   rest of the file is still checked, so other diagnostics can appear
;   around it.
;
;   This rule is built into oomlint: it has no query.
;
;   ## Why is this bad?
;   A file that does not parse does not run, and the other rules can only
;   guess at the code around the broken part: a loop whose header is cut in
;   half is not recognised as a loop, so the memory problems inside it go
;   unreported. Fixing the syntax first gives every other rule the whole
;   file to look at.
;
;   Valid Python 3.8 to 3.13 syntax (the walrus operator, `match`
;   statements, f-strings, `async` functions, type parameter lists,
;   decorators with arbitrary expressions) is understood and not reported.
;   Lines may end with `\n`, `\r\n` or a lone `\r` (old Mac files, or a
;   stray one), as CPython reads them: none is a syntax error, and each
;   counts as one line end in the rows oomlint reports.
;   Two constructs are not understood yet and are reported as a syntax
;   error by the parser oomlint ships: defaults for type parameters
;   (`class Box[T = int]:`, new in Python 3.13), and a starred
;   parenthesized expression in a tuple without parentheses
;   (`return name, *(int(x) for x in xs)`; `return (name, *(...))` and
;   `return name, *xs` are fine). Add the parentheses, or ignore OOM000
;   for that file (`per-file-ignores`); as in Ruff, a syntax error cannot
;   be silenced with `# noqa`.
;
;   ## Example
;   ```python
;   for images, labels in train_loader
;       loss = criterion(model(images), labels)
;   ```
;
;   ## Use instead
;   ```python
;   for images, labels in train_loader:
;       loss = criterion(model(images), labels)
;   ```
;
;   ## Fix safety
;   There is no fix: only the author knows what the broken code was meant to
;   say.
;
;   ## References
;   - [The Python Language Reference: full grammar specification](https://docs.python.org/3/reference/grammar.html)
