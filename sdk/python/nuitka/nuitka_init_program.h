/* Pitboss: included by Nuitka's nuitka/prelude.h, after Python.h, because
 * pitboss_plugin.py sets _NUITKA_EXPERIMENTAL_INIT_PROGRAM.
 *
 * Nuitka's main() runs the bot's module and then calls Py_Exit(code), which
 * finalises the interpreter and exits the process. A bot needs the
 * interpreter alive after its module has run, to answer requests: inside
 * main(), Py_Exit(code) therefore returns the code to pitboss_shim.c
 * instead. Everywhere else (fatal errors only) it is Py_Exit as ever, the
 * macro's own name not being expanded again inside it. The return is dead
 * code outside main(), so the diagnostic for returning a value from a void
 * function is silenced. */
#define NUITKA_INIT_PROGRAM_EARLY(argc, argv)
#define NUITKA_INIT_PROGRAM_LATE(module_name)
#pragma clang diagnostic ignored "-Wreturn-mismatch"
#define Py_Exit(code)                                                                                                  \
    do {                                                                                                               \
        if (__builtin_strcmp(__func__, "main") == 0) return (code);                                                   \
        Py_Exit(code);                                                                                                 \
    } while (0)
