/* The project index: the modules a file imports inside its project, each read
 * and parsed once and reduced to a summary (its nn.Module classes, what each
 * function returns, whether it trains or evaluates). One index serves a whole
 * run or a whole language-server session and is shared by every thread. */
#ifndef OOMLINT_PROJECT_H
#define OOMLINT_PROJECT_H

#include <stddef.h>
#include <stdint.h>

#include "oomlint/document.h"
#include "oomlint/linter.h"

typedef struct oom_project oom_project;

/** An empty index: modules are read the first time a lint asks for them. */
oom_project *oom_project_new(void);
/** Free the index. No lint may be using it. */
void oom_project_free(oom_project *self);

/** Read the module at PATH from TEXT instead of the file (an editor's buffer
 *  that is not saved); TEXT NULL goes back to the file. What was learnt from
 *  the old text is forgotten. Safe while other threads lint. */
void oom_project_set_text(oom_project *self, const char *path, const char *text, size_t length);
/** Forget what was read of PATH (the file changed on disk). */
void oom_project_forget(oom_project *self, const char *path);

/** The run will lint the file at PATH: when the index parses it for a
 *  summary first, it keeps the tree (within a bound) for that lint, which
 *  then need not parse it again. For runs that lint a known list of files
 *  (the command line); never needed for correctness. */
void oom_project_expect(oom_project *self, const char *path);

/** Let the lints of WORKER resolve each document's imports through PROJECT,
 *  the document's path being where its file is (relative to the working
 *  folder, or absolute). PROJECT must outlive those lints; NULL lints each
 *  document on its own. */
void oom_worker_use_project(oom_worker *self, oom_project *project);

/** The modules the last lint of DOC read through its project (their
 *  summaries decided some of its diagnostics): absolute paths, and the hash
 *  of the text each had (as the result cache hashes files). */
size_t oom_document_dependency_count(const oom_document *self);
const char *oom_document_dependency(const oom_document *self, size_t index, uint64_t *hash);
/** Whether the last lint of DOC read the module at PATH (absolute). */
int oom_document_depends_on(const oom_document *self, const char *path);

#endif
