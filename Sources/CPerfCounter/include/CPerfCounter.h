#ifndef CPERFCOUNTER_H
#define CPERFCOUNTER_H

#include <stdint.h>

/// Opens a counter of the instructions the calling thread retires in user space (Linux
/// `perf_event_open`, counting from now). Returns its descriptor, or -1 where the kernel or the
/// platform offers none (then `errno` says why on Linux).
int actionlog_open_instruction_counter(void);

/// The counter's value so far, or -1 when it cannot be read.
int64_t actionlog_read_counter(int descriptor);

/// Closes a counter opened by `actionlog_open_instruction_counter`.
void actionlog_close_counter(int descriptor);

#endif
