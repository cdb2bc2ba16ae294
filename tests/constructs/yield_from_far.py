"""A `yield from` with more than 255 code units of code after it in a loop:
3.12+ jumps from its CLEANUP_THROW back to the END_SEND with an EXTENDED_ARG
prefix (issue 16: pygments' RegexLexer.get_tokens_unprocessed came out
equivalent yet marked "could not recover this region")."""


def long_body_after_yield_from(source, ready):
    while 1:
        yield from source
        if ready:
            step0()
            step1()
            step2()
            step3()
            step4()
            step5()
            step6()
            step7()
            step8()
            step9()
            step10()
            step11()
            step12()
            step13()
            step14()
            step15()
            step16()
            step17()
            step18()
            step19()
            step20()
            step21()
            step22()
            step23()
            step24()
            step25()
            step26()
            step27()
            step28()
            step29()
            step30()
            step31()
            step32()
            step33()
            step34()
            step35()
            step36()
            step37()
            step38()
            step39()
