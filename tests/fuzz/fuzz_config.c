/* libFuzzer target: the configuration reader (src/config) on arbitrary bytes,
 * as oomlint.toml or, when the first byte is odd, as pyproject.toml. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* config_load reads a path: the input goes to a file of this process's own */
  char dir[64], path[96];
  snprintf(dir, sizeof dir, "/tmp/oomlint-fuzz-config.%ld", (long)getpid());
  mkdir(dir, 0700);
  snprintf(path, sizeof path, "%s/%s", dir, size && (data[0] & 1) ? "pyproject.toml" : "oomlint.toml");
  FILE *f = fopen(path, "wb");
  if (!f) return 0;
  fwrite(data, 1, size, f);
  fclose(f);
  config c;
  memset(&c, 0, sizeof c);
  char *error = NULL;
  config_load(path, &c, &error);
  free(error);
  config_free(&c);
  unlink(path);
  rmdir(dir); /* left behind, one folder per fuzzing process would pile up */
  return 0;
}
