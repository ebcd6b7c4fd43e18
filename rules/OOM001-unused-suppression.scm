; code: OOM001
; name: unused-suppression
; severity: info
; message: Unused suppression: nothing reported here for the code named in this `noqa` comment
; fix: safe: Remove the unused code from the comment (or the whole comment)
; doc:
;   ## What it does
;   Reports `# noqa: CODE` comments and file-wide `# oomlint: noqa: CODE`
;   comments that name an oomlint code (`OOMnnn`) for which nothing is
;   reported on that line (or, for the file-wide form, anywhere in the
;   file).
;
;   A blanket `# noqa` without codes is never reported: other tools (Ruff,
;   flake8) read the same comment. Codes of other tools, such as
;   `# noqa: E501`, are left alone as well.
;
;   This rule is built into oomlint: it has no query.
;
;   ## Why is this bad?
;   A suppression is written when a rule fires on code that its author
;   judged to be fine. When the code changes (the call was removed, moved
;   out of the loop, or fixed), the comment stays behind. Stale
;   suppressions hide the next real problem on that line, and they make
;   readers believe there is something to suppress.
;
;   ## Example
;   ```python
;   for images, labels in train_loader:
;       loss = criterion(model(images), labels)
;       loss.backward()
;       optimizer.step()
;   torch.cuda.empty_cache()  # noqa: OOM501
;   ```
;   The call now runs once, after the loop, so OOM501 no longer fires here.
;
;   ## Use instead
;   ```python
;   for images, labels in train_loader:
;       loss = criterion(model(images), labels)
;       loss.backward()
;       optimizer.step()
;   torch.cuda.empty_cache()
;   ```
;
;   ## Fix safety
;   The fix removes the unused code from the comment, or the whole comment
;   when no code is left. It is safe: the codes it removes suppress nothing.
;
;   ## References
;   - [Ruff: error suppression](https://docs.astral.sh/ruff/linter/#error-suppression)
