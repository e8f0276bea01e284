/* The Pitboss ABI for a Python bot (sdk/ABI.md): the three exports, and
 * the start of the interpreter at the first decision. Linked into the bot
 * by pitboss_plugin.py.
 *
 * Python starts in pitboss_preinit (sdk/ABI.md, "Start-up snapshots"):
 * the host calls it once per load, under the start-up fuel (CPython and
 * the bot's module: about 200 million, so a league raises
 * fuel_for_startup; sdk/README.md, "Python"), and every instance, the
 * fresh one after a trap included, starts from the state it left. A host
 * that does not know pitboss_preinit never calls it, and the first
 * pitboss_decide starts Python instead. */
#include <Python.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

extern int main(int argc, char **argv); /* Nuitka's: runs the bot's module */

static uint8_t buffer[4096] __attribute__((aligned(16)));
static PyObject *decide; /* pitboss._decide */
static int reseeded;     /* 0 in the start-up snapshot */

/* Prints the Python traceback, if any, and `why` to the bot's log, then
 * traps: a `trap` fault, the decision's safe default, a fresh instance. */
static void fail(const char *why) {
    if (PyErr_Occurred()) PyErr_Print();
    fprintf(stderr, "pitboss: %s\n", why);
    __builtin_trap();
}

/* The interpreter and the program's module (the bot's, or the runtime's). */
static void boot(void) {
    char *argv[] = {"bot", NULL};
    if (main(1, argv) != 0) fail("the bot's module raised an exception while starting");
}

/* The bot's `pitboss.play(bot)`, once its module has run. */
static void bind(void) {
    PyObject *sdk = PyImport_ImportModule("pitboss");
    if (!sdk) fail("cannot import the pitboss module");
    PyObject *view = PyMemoryView_FromMemory((char *)buffer, sizeof buffer, PyBUF_READ);
    if (!view || PyObject_SetAttrString(sdk, "_buffer", view) != 0) fail("cannot hand the buffer to pitboss");
    PyObject *bot = PyObject_GetAttrString(sdk, "_bot");
    if (!bot || bot == Py_None) fail("the bot never called pitboss.play(bot)");
    decide = PyObject_GetAttrString(sdk, "_decide");
    if (!decide) fail("pitboss._decide is missing");
}

#ifdef PITBOSS_RUNTIME
/* The Python runtime (sdk/ABI.md, "Bots from source"): pitboss_preinit
 * starts CPython and runtime.py; the host then hands it a bot's source
 * (pitboss_source_reserve, then pitboss_source_load), which runtime.py's
 * _load checks and runs, all before the snapshot every table starts from. */
static PyObject *load; /* runtime.py's _load */
static char *source;
static int32_t source_len;

static void start(void) {
    boot();
    PyObject *program = PyImport_AddModule("__main__");
    load = program ? PyObject_GetAttrString(program, "_load") : NULL;
    if (!load) fail("the runtime has no _load");
    Py_INCREF(program); /* runtime.py's globals outlive its sys.modules entry */
}

/* Room for `len` bytes of source: their address, or 0 (none, or twice). */
__attribute__((export_name("pitboss_source_reserve"))) int32_t pitboss_source_reserve(int32_t len) {
    if (len < 0 || source || decide) return 0;
    source = malloc((size_t)len + 1);
    if (!source) return 0;
    source_len = len;
    return (int32_t)(uintptr_t)source;
}

/* Checks and runs the source: 0, or 1 with one line (runtime.py's
 * `LINE:COL: what`) written last to stderr; 2 if nothing was reserved. */
__attribute__((export_name("pitboss_source_load"))) int32_t pitboss_source_load(void) {
    if (!load) start();
    if (!source || decide) return 2;
    PyObject *text = PyBytes_FromStringAndSize(source, source_len);
    PyObject *why = text ? PyObject_CallOneArg(load, text) : NULL;
    Py_XDECREF(text);
    free(source);
    source = NULL;
    if (!why) fail("the runtime failed to load the source");
    if (why != Py_None) {
        const char *line = PyUnicode_AsUTF8(why);
        fprintf(stderr, "%s\n", line ? line : "the source was refused");
        fflush(stderr);
        Py_DECREF(why);
        return 1;
    }
    Py_DECREF(why);
    bind();
    return 0;
}

__attribute__((export_name("pitboss_preinit"))) void pitboss_preinit(void) {
    if (!load) start();
}

/* The line of bot.py the interpreter is at, in its innermost frame of the
 * bot's source, or 0. The host calls it only after a decision it gave many
 * times the fuel cap ran out of fuel again (an endless loop?), before the
 * instance is reset: the interrupted frames are still in place. Reads
 * them; runs no Python code. */
__attribute__((export_name("pitboss_where"))) int32_t pitboss_where(void) {
    PyThreadState *state = _PyThreadState_UncheckedGet();
    PyFrameObject *frame = state ? PyThreadState_GetFrame(state) : NULL;
    while (frame) {
        PyCodeObject *code = PyFrame_GetCode(frame);
        int ours = code && PyUnicode_Check(code->co_filename) &&
                   PyUnicode_CompareWithASCIIString(code->co_filename, "bot.py") == 0;
        Py_XDECREF(code);
        if (ours) {
            int line = PyFrame_GetLineNumber(frame);
            Py_DECREF(frame);
            return line > 0 ? line : 0;
        }
        PyFrameObject *back = PyFrame_GetBack(frame);
        Py_DECREF(frame);
        frame = back;
    }
    return 0;
}
#else
static void start(void) {
    boot();
    bind();
}

__attribute__((export_name("pitboss_preinit"))) void pitboss_preinit(void) {
    if (!decide) start();
}
#endif

__attribute__((export_name("pitboss_abi_version"))) int32_t pitboss_abi_version(void) { return 1; }

__attribute__((export_name("pitboss_buffer"))) int32_t pitboss_buffer(void) { return (int32_t)(uintptr_t)buffer; }

/* `random`, if the bot imported it, was seeded while Python started,
 * once for every instance: each instance's first decision seeds it again
 * from its own seat's stream (os.urandom), as a fresh start would. */
static void reseed(void) {
    reseeded = 1;
    PyObject *random = PyDict_GetItemString(PyImport_GetModuleDict(), "random");
    PyObject *done = random ? PyObject_CallMethod(random, "seed", NULL) : NULL;
    if (random && !done) fail("cannot seed the random module");
    Py_XDECREF(done);
}

__attribute__((export_name("pitboss_decide"))) int64_t pitboss_decide(int32_t kind) {
#ifdef PITBOSS_RUNTIME
    if (!decide) fail("no bot source was loaded (pitboss_source_load)");
#else
    if (!decide) start();
#endif
    if (!reseeded) reseed();
    PyObject *arg = PyLong_FromLong(kind);
    PyObject *answer = arg ? PyObject_CallOneArg(decide, arg) : NULL;
    Py_XDECREF(arg);
    if (!answer) fail("the bot raised an exception");
    long long v = PyLong_AsLongLong(answer);
    Py_DECREF(answer);
    if (v == -1 && PyErr_Occurred()) fail("the answer is not a 64-bit integer");
    return v;
}

/* WASI calls outside Pitboss's subset that wasi-libc links in for CPython
 * but a bot never needs: answered here as the host would answer for a file
 * that does not exist, so the module does not import them (the host
 * refuses such imports). No descriptor but 0-2 exists and they are not
 * files; there is no directory and no socket. */
#define EBADF 8
#define ESPIPE 70
#define ENOTCAPABLE 76
#define STDIO(fd) ((uint32_t)(fd) < 3 ? ENOTCAPABLE : EBADF)
#define WASI(name) __imported_wasi_snapshot_preview1_##name
int32_t WASI(fd_advise)(int32_t fd, int64_t o, int64_t n, int32_t a) { return STDIO(fd); }
int32_t WASI(fd_allocate)(int32_t fd, int64_t o, int64_t n) { return STDIO(fd); }
int32_t WASI(fd_datasync)(int32_t fd) { return STDIO(fd); }
int32_t WASI(fd_fdstat_set_rights)(int32_t fd, int64_t b, int64_t i) { return STDIO(fd); }
int32_t WASI(fd_filestat_set_size)(int32_t fd, int64_t n) { return STDIO(fd); }
int32_t WASI(fd_filestat_set_times)(int32_t fd, int64_t a, int64_t m, int32_t f) { return STDIO(fd); }
int32_t WASI(fd_pread)(int32_t fd, int32_t iovs, int32_t n, int64_t o, int32_t out) { return STDIO(fd); }
int32_t WASI(fd_pwrite)(int32_t fd, int32_t iovs, int32_t n, int64_t o, int32_t out) { return STDIO(fd); }
int32_t WASI(fd_readdir)(int32_t fd, int32_t buf, int32_t n, int64_t c, int32_t out) { return STDIO(fd); }
int32_t WASI(fd_renumber)(int32_t fd, int32_t to) { return STDIO(fd); }
int32_t WASI(fd_tell)(int32_t fd, int32_t out) { return (uint32_t)fd < 3 ? ESPIPE : EBADF; }
int32_t WASI(path_create_directory)(int32_t fd, int32_t p, int32_t n) { return EBADF; }
int32_t WASI(path_filestat_get)(int32_t fd, int32_t f, int32_t p, int32_t n, int32_t out) { return EBADF; }
int32_t WASI(path_filestat_set_times)(int32_t fd, int32_t f, int32_t p, int32_t n, int64_t a, int64_t m, int32_t ff) {
    return EBADF;
}
int32_t WASI(path_link)(int32_t fd, int32_t f, int32_t p, int32_t n, int32_t fd2, int32_t p2, int32_t n2) { return EBADF; }
int32_t WASI(path_readlink)(int32_t fd, int32_t p, int32_t n, int32_t buf, int32_t len, int32_t out) { return EBADF; }
int32_t WASI(path_remove_directory)(int32_t fd, int32_t p, int32_t n) { return EBADF; }
int32_t WASI(path_rename)(int32_t fd, int32_t p, int32_t n, int32_t fd2, int32_t p2, int32_t n2) { return EBADF; }
int32_t WASI(path_symlink)(int32_t p, int32_t n, int32_t fd, int32_t p2, int32_t n2) { return EBADF; }
int32_t WASI(path_unlink_file)(int32_t fd, int32_t p, int32_t n) { return EBADF; }
int32_t WASI(sock_accept)(int32_t fd, int32_t f, int32_t out) { return EBADF; }
int32_t WASI(sock_recv)(int32_t fd, int32_t iovs, int32_t n, int32_t f, int32_t out, int32_t outf) { return EBADF; }
int32_t WASI(sock_send)(int32_t fd, int32_t iovs, int32_t n, int32_t f, int32_t out) { return EBADF; }
int32_t WASI(sock_shutdown)(int32_t fd, int32_t how) { return EBADF; }
