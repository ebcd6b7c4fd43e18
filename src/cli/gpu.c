/* This file contains `--gpu-memory auto`: nvidia-smi's total memory of the first GPU, so that a
 * budget need not be typed on a machine that has one. */
#include "cli/gpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>


bool cli_gpu_memory_auto(uint64_t *bytes, char *name, size_t size) {
  FILE *p = popen("nvidia-smi --query-gpu=name,memory.total --format=csv,noheader,nounits 2>/dev/null", "r");
  if (!p) {
    snprintf(name, size, "nvidia-smi could not be run");
    return false;
  }
  char line[512];
  bool got = fgets(line, sizeof line, p) != NULL;
  /* read the rest so that nvidia-smi is not killed by a closed pipe */
  char rest[512];
  while (fgets(rest, sizeof rest, p)) {
  }
  int status = pclose(p);
  if (!got || status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    snprintf(name, size, "nvidia-smi is not on PATH or found no GPU (no NVIDIA driver on this machine)");
    return false;
  }
  /* "NVIDIA H100 80GB HBM3, 81559": the name, then MiB */
  char *comma = strrchr(line, ',');
  char *end = NULL;
  unsigned long long mib = comma ? strtoull(comma + 1, &end, 10) : 0;
  if (!comma || end == comma + 1 || mib == 0 || mib > (1ull << 40)) {
    snprintf(name, size, "nvidia-smi printed no memory size");
    return false;
  }
  *comma = '\0';
  snprintf(name, size, "%s", line);
  *bytes = (uint64_t)mib << 20;
  return true;
}
