/* oomlint public API: everything a front end (command line, language server,
 * tests) needs. Include this one header; the others group it by concept. */
#ifndef OOMLINT_OOMLINT_H
#define OOMLINT_OOMLINT_H

#include "oomlint/options.h"
#include "oomlint/linter.h"
#include "oomlint/document.h"
#include "oomlint/diagnostic.h"
#include "oomlint/fix.h"
#include "oomlint/project.h"

/** The library version, e.g. "0.1.0". */
const char *oom_version(void);

#endif
