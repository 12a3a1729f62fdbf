"""What each process the server starts (engine workers, the text preparer) does first."""

import os
import signal


def leave_process_group() -> None:
    """In a process the server started: its shutdown is the server's (which drains, then stops it), not that of a
    signal sent to the server's whole process group (a terminal's Ctrl-C, timeout(1), kill -- -PGID, a supervisor
    stopping a group), which must not end it under requests still draining: a SIGTERM to the group failed 15 of 16
    calls in flight with INTERNAL. So it leaves the group, ignoring a Ctrl-C that comes before it has left, and
    SIGTTOU, which stops a background group that writes to a terminal set to `tostop`. SIGTERM sent to the process
    itself keeps its default: multiprocessing ends daemon children with it when the server's interpreter exits."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTTOU, signal.SIG_IGN)
    os.setpgrp()
