"""What each process the server starts (engine workers, the text preparer) does first."""

import os
import signal

# These processes run at a lower priority than the server's event loop: every request passes through the loop
# twice, so when the cores are oversubscribed (engines, loop and, on a small box, clients) the loop must not queue
# behind their work. 2 cores, 64 unary clients, two engine workers, one run each: mean decoder batch 15 -> 26 rows
# and 5,335 -> 5,479 tok/s with it. One client sending paragraphs of 20,000-32,768 characters beside four sending one
# sentence at a time, two rounds of 20 s: sentences answered 943 / 912 -> 1,270 / 1,210 (p50 32 / 34 -> 28 / 28 ms),
# paragraphs 56 / 52 -> 48 / 48 with the text preparer at this priority.
NICENESS = 5


def detach_from_server() -> None:
    """Leave the server's process group and run below its priority. Shutdown is the server's (it drains, then stops
    the process), not that of a signal sent to its whole process group (a terminal's Ctrl-C, timeout(1), kill --
    -PGID, a supervisor stopping a group), which must not end the process under requests still draining: a SIGTERM to
    the group failed 15 of 16 calls in flight with INTERNAL. So it leaves the group, ignoring a Ctrl-C that comes
    before it has left, and SIGTTOU, which stops a background group that writes to a terminal set to `tostop`. SIGTERM
    sent to the process itself keeps its default: multiprocessing ends daemon children with it when the server's
    interpreter exits."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTTOU, signal.SIG_IGN)
    os.setpgrp()
    os.nice(NICENESS)
