#include "CPerfCounter.h"

#if defined(__linux__)
#include <linux/perf_event.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int actionlog_open_instruction_counter(void) {
    struct perf_event_attr attributes;
    memset(&attributes, 0, sizeof attributes);
    attributes.type = PERF_TYPE_HARDWARE;
    attributes.size = sizeof attributes;
    attributes.config = PERF_COUNT_HW_INSTRUCTIONS;
    attributes.exclude_kernel = 1;
    attributes.exclude_hv = 1;
    // pid 0, cpu -1: this thread, on whichever CPU it runs.
    return (int)syscall(SYS_perf_event_open, &attributes, 0, -1, -1, 0);
}

int64_t actionlog_read_counter(int descriptor) {
    uint64_t value = 0;
    return read(descriptor, &value, sizeof value) == (ssize_t)sizeof value ? (int64_t)value : -1;
}

void actionlog_close_counter(int descriptor) {
    close(descriptor);
}
#else
int actionlog_open_instruction_counter(void) { return -1; }
int64_t actionlog_read_counter(int descriptor) { (void)descriptor; return -1; }
void actionlog_close_counter(int descriptor) { (void)descriptor; }
#endif
