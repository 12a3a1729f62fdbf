/* The per-row loops of a decoder step over a SlotPool's arrays: each call is one pass over the running rows
   0..n-1 (service.runtime.SlotPool.kernel; Runtime.step and the scheduler's update_from_output call it).

   Why C: a decoder run streams tens of MB of weights through the CPU's caches, and afterwards every distinct numpy
   operation pays its own code's cache misses again. Measured right after a run of the OPUS-base int8 decoder at
   batch 32: `lengths += 1` on 32 values 41-48 us, `lengths.max()` 58-70 us, a Python no-op 1 us. A greedy step
   needed about a dozen such operations; these loops take a few microseconds. The argmax remains bound by memory: it
   reads the batch's logits once, like numpy's.

   A kernel holds the pool's arrays (checked once, when it is made), whose memory never moves while the pool
   lives. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/* The argmax reads each block's maximum in LANES independent lanes, so that the compiler emits vector
   instructions; where the CPU has wider ones, glibc picks that clone of the function when the module loads. */
#define BLOCK 512
#define LANES 16

#if defined(__GNUC__) && defined(__x86_64__) && defined(__GLIBC__)
#define WIDEST_VECTORS __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define WIDEST_VECTORS
#endif

#if defined(__GNUC__)
typedef float lanes_f __attribute__((vector_size(LANES * sizeof(float))));
typedef int32_t lanes_i __attribute__((vector_size(LANES * sizeof(float))));

/* Lane by lane, b where it is greater, else a (false where either is NaN: a NaN never takes over a lane). */
#define LANES_MAX(a, b) ((lanes_f)(((lanes_i)(b) & ((b) > (a))) | ((lanes_i)(a) & ~((b) > (a)))))

/* Inlined into each clone of argmax, so that it is compiled for that clone's instructions. */
__attribute__((always_inline)) static inline float block_max(const float *x) {
    /* Four accumulators: each compare-and-blend waits for the one before in its chain; four chains keep the loads
       flowing. */
    lanes_f best[4], next;
    for (int a = 0; a < 4; a++) best[a] = (lanes_f){0} - INFINITY;
    for (int j = 0; j < BLOCK; j += 4 * LANES)
        for (int a = 0; a < 4; a++) {
            memcpy(&next, x + j + a * LANES, sizeof next);
            best[a] = LANES_MAX(best[a], next);
        }
    lanes_f pair0 = LANES_MAX(best[0], best[1]), pair1 = LANES_MAX(best[2], best[3]);
    lanes_f all = LANES_MAX(pair0, pair1);
    float m = -INFINITY;
    for (int k = 0; k < LANES; k++) m = all[k] > m ? all[k] : m;
    return m;
}
#else
static float block_max(const float *x) {
    float m = -INFINITY;
    for (int j = 0; j < BLOCK; j++) m = x[j] > m ? x[j] : m;
    return m;
}
#endif

/* The first index of the largest value of x[0..v), as numpy's argmax gives it for rows without NaN (here NaNs are
   passed over; a row with nothing above -inf gives 0). One pass over memory: the maximum of each block, then the
   first maximum inside the best block, which is still in the cache. */
WIDEST_VECTORS
static int64_t argmax(const float *x, int64_t v) {
    float best = -INFINITY;
    int64_t best_block = 0, start = 0;
    for (; start + BLOCK <= v; start += BLOCK) {
        float m = block_max(x + start);
        if (m > best) { /* strictly: the first block holding the maximum keeps it */
            best = m;
            best_block = start;
        }
    }
    int64_t tail = -1;
    for (int64_t j = start; j < v; j++)
        if (x[j] > best) {
            best = x[j];
            tail = j;
        }
    if (tail >= 0) return tail;
    for (int64_t j = best_block; j < start; j++)
        if (x[j] == best) return j;
    return 0;
}

typedef struct {
    PyObject_HEAD
    Py_buffer logits, lengths, min_tokens, max_tokens, deadlines, features, last_tokens, output;
    Py_ssize_t slots, vocab, max_output_tokens;
} RowKernel;

#define VIEWS(self) {&(self)->logits, &(self)->lengths, &(self)->min_tokens, &(self)->max_tokens, &(self)->deadlines, \
                     &(self)->features, &(self)->last_tokens, &(self)->output}

static void RowKernel_dealloc(RowKernel *self) {
    Py_buffer *views[] = VIEWS(self);
    for (size_t i = 0; i < sizeof views / sizeof *views; i++)
        if (views[i]->obj) PyBuffer_Release(views[i]);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* A writable C-contiguous buffer with `ndim` dimensions of `itemsize`-byte items of `kind` ('f' floating point,
   'i' signed integer, 'u' unsigned integer) and `rows` entries along its first dimension (any when rows < 0). */
static int take(PyObject *array, const char *name, Py_buffer *view, int ndim, char kind, Py_ssize_t itemsize,
                Py_ssize_t rows) {
    if (PyObject_GetBuffer(array, view, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) return -1;
    const char *format = view->format ? view->format : "B";
    if (*format == '<' || *format == '=' || *format == '@') format++;
    char got = strchr("efd", *format) ? 'f' : strchr("bhilq", *format) ? 'i' : strchr("BHILQ?", *format) ? 'u' : '?';
    if (*format == '\0' || format[1] != '\0') got = '?';
    if (view->ndim != ndim || view->itemsize != itemsize || got != kind || (rows >= 0 && view->shape[0] != rows)) {
        PyErr_Format(PyExc_TypeError,
                     "%s: expected %d dimension(s) of %zd-byte %s and %zd rows; got %d dimension(s) of format '%s'",
                     name, ndim, itemsize, kind == 'f' ? "floats" : kind == 'i' ? "signed integers" : "unsigned integers",
                     rows < 0 ? view->shape[0] : rows, view->ndim, view->format ? view->format : "B");
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static int RowKernel_init(RowKernel *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"logits", "lengths", "min_tokens", "max_tokens", "deadlines", "features", "last_tokens",
                            "output", NULL};
    PyObject *a[8];
    if (self->logits.obj) {
        PyErr_SetString(PyExc_RuntimeError, "a RowKernel is bound to its arrays once");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOOOOOO:RowKernel", names, &a[0], &a[1], &a[2], &a[3], &a[4], &a[5],
                                     &a[6], &a[7]))
        return -1;
    if (take(a[0], "logits", &self->logits, 2, 'f', 4, -1) < 0) return -1;
    Py_ssize_t slots = self->logits.shape[0];
    if (take(a[1], "lengths", &self->lengths, 1, 'i', 8, slots) < 0 ||
        take(a[2], "min_tokens", &self->min_tokens, 1, 'i', 8, slots) < 0 ||
        take(a[3], "max_tokens", &self->max_tokens, 1, 'i', 8, slots) < 0 ||
        take(a[4], "deadlines", &self->deadlines, 1, 'f', 8, slots) < 0 ||
        take(a[5], "features", &self->features, 1, 'u', 1, slots) < 0 ||
        take(a[6], "last_tokens", &self->last_tokens, 1, 'i', 8, slots) < 0 ||
        take(a[7], "output", &self->output, 2, 'i', 8, slots) < 0)
        return -1; /* the views taken so far are released with the object */
    self->slots = slots;
    self->vocab = self->logits.shape[1];
    self->max_output_tokens = self->output.shape[1];
    return 0;
}

/* Integer argument i of a fast call, within [low, high]. */
static int int_arg(PyObject *const *args, Py_ssize_t i, const char *name, Py_ssize_t low, Py_ssize_t high,
                   Py_ssize_t *out) {
    Py_ssize_t value = PyLong_AsSsize_t(args[i]);
    if (value == -1 && PyErr_Occurred()) return -1;
    if (value < low || value > high) {
        PyErr_Format(PyExc_ValueError, "%s=%zd must be between %zd and %zd", name, value, low, high);
        return -1;
    }
    *out = value;
    return 0;
}

static int arity(const char *method, Py_ssize_t nargs, Py_ssize_t expected) {
    if (nargs == expected) return 0;
    PyErr_Format(PyExc_TypeError, "RowKernel.%s takes %zd arguments (%zd given)", method, expected, nargs);
    return -1;
}

#define LENGTHS(self) ((int64_t *)(self)->lengths.buf)
#define FEATURES(self) ((uint8_t *)(self)->features.buf)

static PyObject *RowKernel_longest(RowKernel *self, PyObject *const *args, Py_ssize_t nargs) {
    Py_ssize_t n;
    if (arity("longest", nargs, 1) < 0 || int_arg(args, 0, "n", 0, self->slots, &n) < 0) return NULL;
    int64_t longest = 0;
    for (Py_ssize_t row = 0; row < n; row++)
        if (LENGTHS(self)[row] > longest) longest = LENGTHS(self)[row];
    return PyLong_FromLongLong(longest);
}

static PyObject *RowKernel_advance(RowKernel *self, PyObject *const *args, Py_ssize_t nargs) {
    Py_ssize_t n;
    if (arity("advance", nargs, 1) < 0 || int_arg(args, 0, "n", 0, self->slots, &n) < 0) return NULL;
    for (Py_ssize_t row = 0; row < n; row++) LENGTHS(self)[row]++;
    Py_RETURN_NONE;
}

/* Append (row, token) to list, or row alone when token < 0; -1 on failure. */
static int append(PyObject *list, Py_ssize_t row, int64_t token) {
    PyObject *item = token < 0 ? PyLong_FromSsize_t(row) : Py_BuildValue("(nL)", row, (long long)token);
    if (!item) return -1;
    int failed = PyList_Append(list, item);
    Py_DECREF(item);
    return failed;
}

static PyObject *RowKernel_expired(RowKernel *self, PyObject *const *args, Py_ssize_t nargs) {
    Py_ssize_t n;
    if (arity("expired", nargs, 2) < 0 || int_arg(args, 0, "n", 0, self->slots, &n) < 0) return NULL;
    double now = PyFloat_AsDouble(args[1]);
    if (now == -1.0 && PyErr_Occurred()) return NULL;
    PyObject *rows = PyList_New(0);
    const double *deadlines = self->deadlines.buf;
    for (Py_ssize_t row = 0; rows && row < n; row++)
        if (deadlines[row] <= now && append(rows, row, -1) < 0) Py_CLEAR(rows);
    return rows;
}

static PyObject *RowKernel_prepare(RowKernel *self, PyObject *const *args, Py_ssize_t nargs) {
    Py_ssize_t n, eos;
    if (arity("prepare", nargs, 2) < 0 || int_arg(args, 0, "n", 0, self->slots, &n) < 0 ||
        int_arg(args, 1, "eos", 0, self->vocab - 1, &eos) < 0)
        return NULL;
    float *logits = self->logits.buf;
    const int64_t *min_tokens = self->min_tokens.buf;
    unsigned present = 0;
    for (Py_ssize_t row = 0; row < n; row++) {
        if (LENGTHS(self)[row] <= min_tokens[row]) logits[row * self->vocab + eos] = -INFINITY;
        present |= FEATURES(self)[row];
    }
    return PyLong_FromUnsignedLong(present);
}

/* (row, period) for each of rows 0..n-1 with a `bit` feature whose generated tokens end in two copies of one block
   of `period` <= max_period tokens (the shortest such block): its next token must not start a third copy. */
static PyObject *RowKernel_repeats(RowKernel *self, PyObject *const *args, Py_ssize_t nargs) {
    Py_ssize_t n, bit, max_period;
    if (arity("repeats", nargs, 3) < 0 || int_arg(args, 0, "n", 0, self->slots, &n) < 0 ||
        int_arg(args, 1, "bit", 0, 255, &bit) < 0 ||
        int_arg(args, 2, "max_period", 1, self->max_output_tokens, &max_period) < 0)
        return NULL;
    PyObject *rows = PyList_New(0);
    for (Py_ssize_t row = 0; rows && row < n; row++) {
        if (!(FEATURES(self)[row] & bit)) continue;
        int64_t before = LENGTHS(self)[row] - 1; /* tokens generated before this step's */
        if (before > self->max_output_tokens) before = self->max_output_tokens;
        const int64_t *end = (const int64_t *)self->output.buf + row * self->max_output_tokens + before;
        for (Py_ssize_t period = 1; period <= max_period && 2 * period <= before; period++)
            if (end[-1] == end[-1 - period] && !memcmp(end - 2 * period, end - period, period * sizeof *end)) {
                PyObject *item = Py_BuildValue("(nn)", row, period);
                if (!item || PyList_Append(rows, item) < 0) Py_CLEAR(rows);
                Py_XDECREF(item);
                break;
            }
    }
    return rows;
}

static PyObject *RowKernel_choose(RowKernel *self, PyObject *const *args, Py_ssize_t nargs) {
    Py_ssize_t n, eos, skipped, given, streaming;
    if (arity("choose", nargs, 5) < 0 || int_arg(args, 0, "n", 0, self->slots, &n) < 0 ||
        int_arg(args, 1, "eos", 0, self->vocab - 1, &eos) < 0 || int_arg(args, 2, "skipped", 0, 255, &skipped) < 0 ||
        int_arg(args, 3, "given", 0, 255, &given) < 0 || int_arg(args, 4, "streaming", 0, 255, &streaming) < 0)
        return NULL;
    for (Py_ssize_t row = 0; row < n; row++) {
        int64_t generated = LENGTHS(self)[row];
        if (!(FEATURES(self)[row] & skipped) && (generated < 1 || generated > self->max_output_tokens))
            return PyErr_Format(PyExc_IndexError, "row %zd has generated %lld tokens; its output holds 1 to %zd", row,
                                (long long)generated, self->max_output_tokens);
    }
    const float *logits = self->logits.buf;
    const int64_t *max_tokens = self->max_tokens.buf;
    int64_t *last_tokens = self->last_tokens.buf, *output = self->output.buf;
    PyObject *finished = PyList_New(0), *streamed = PyList_New(0);
    for (Py_ssize_t row = 0; finished && streamed && row < n; row++) {
        uint8_t features = FEATURES(self)[row];
        if (features & skipped) continue;
        int64_t generated = LENGTHS(self)[row];
        int64_t token = features & given ? last_tokens[row] : argmax(logits + row * self->vocab, self->vocab);
        output[row * self->max_output_tokens + generated - 1] = token;
        last_tokens[row] = token;
        if ((features & streaming) && token != eos && append(streamed, row, token) < 0) Py_CLEAR(streamed);
        if ((token == eos || generated >= max_tokens[row]) && append(finished, row, -1) < 0) Py_CLEAR(finished);
    }
    if (!finished || !streamed) {
        Py_XDECREF(finished);
        Py_XDECREF(streamed);
        return NULL;
    }
    return Py_BuildValue("(NN)", finished, streamed);
}

static PyMethodDef RowKernel_methods[] = {
    {"longest", (PyCFunction)(void (*)(void))RowKernel_longest, METH_FASTCALL,
     "longest(n) -> the most positions cached by any of rows 0..n-1 (0 for none)."},
    {"advance", (PyCFunction)(void (*)(void))RowKernel_advance, METH_FASTCALL,
     "advance(n): rows 0..n-1 have cached one more position (lengths += 1)."},
    {"expired", (PyCFunction)(void (*)(void))RowKernel_expired, METH_FASTCALL,
     "expired(n, now) -> the rows among 0..n-1 whose deadline is at or before now."},
    {"prepare", (PyCFunction)(void (*)(void))RowKernel_prepare, METH_FASTCALL,
     "prepare(n, eos) -> the bitwise OR of rows 0..n-1's features. First writes -inf into the eos logit of every row\n"
     "that has not generated more than its min_tokens, so that no choice (greedy, sampled, beam) can end it."},
    {"repeats", (PyCFunction)(void (*)(void))RowKernel_repeats, METH_FASTCALL,
     "repeats(n, bit, max_period) -> [(row, period)] for each of rows 0..n-1 with a `bit` feature whose generated\n"
     "tokens end in two copies of one block of period <= max_period tokens (the shortest such block)."},
    {"choose", (PyCFunction)(void (*)(void))RowKernel_choose, METH_FASTCALL,
     "choose(n, eos, skipped, given, streaming) -> (finished rows, [(row, token) streamed]).\n"
     "For each of rows 0..n-1 without a `skipped` feature bit: its token is the argmax of its logits (or, with a\n"
     "`given` bit, the one already in last_tokens); it is written at its place in output and into last_tokens; a\n"
     "row with a `streaming` bit whose token is not eos is streamed; a row whose token is eos, or that has\n"
     "generated max_tokens, is finished. Argmax ties go to the lowest id; NaN logits never win."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject RowKernelType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "service._rowkernel.RowKernel",
    .tp_basicsize = sizeof(RowKernel),
    .tp_dealloc = (destructor)RowKernel_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "RowKernel(logits, lengths, min_tokens, max_tokens, deadlines, features, last_tokens, output): the\n"
              "per-row loops of a decoder step over these arrays of a SlotPool (logits float32 (slots, vocab), output\n"
              "int64 (slots, max_output_tokens), deadlines float64, features uint8, the rest int64, each (slots,)).",
    .tp_methods = RowKernel_methods,
    .tp_init = (initproc)RowKernel_init,
    .tp_new = PyType_GenericNew,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "service._rowkernel", "The per-row loops of a decoder step, in C (see RowKernel).", -1, NULL,
};

PyMODINIT_FUNC PyInit__rowkernel(void) {
    if (PyType_Ready(&RowKernelType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&RowKernelType);
    if (PyModule_AddObject(m, "RowKernel", (PyObject *)&RowKernelType) < 0) {
        Py_DECREF(&RowKernelType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
