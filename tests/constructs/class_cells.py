"""Cells of classes and methods: `nonlocal __class__` in a method, and an if / else ending a class body that needs its __class__ cell (issue 16; test_super, test_socket InterruptedTimeoutBase)."""


class Base:
    def tearDown(self):
        nonlocal __class__
        __class__ = Base

    def f(self):
        return super().f()


def obscure_super(self):
    class X:
        def f(x):
            nonlocal __class__
            del __class__
            super()
    return X


class EndsInIfElse:
    def setUp(self):
        super().setUp()

    timeout = 5
    if hasattr(signal, "setitimer"):
        alarm_time = 0.05

        def setAlarm(self, seconds):
            signal.setitimer(signal.ITIMER_REAL, seconds)
    else:
        alarm_time = 2

        def setAlarm(self, seconds):
            signal.alarm(seconds)


class EndsInIfElif:
    def run(self):
        return super().run()

    if a:
        x = 1
    elif b:
        x = 2
    else:
        x = 3


def classcell_written_by_the_source():
    # test_descr's test_slots_special2: the source's own __classcell__
    # (no cell: 42) is kept; type() refuses it with the slot of that name.
    class C3:
        __classcell__ = 42
        __slots__ = ["__classcell__"]
    return C3
