"""A while loop ending a for loop's body: 3.8 / 3.9 peephole.c threads the while's ways out (its test, a break) to the for loop's jump back, and unthread.c sends them to the jump after the while again.  LIE at f1768de: the break after `append` was lost (real world rich JSONHighlighter.highlight).  The same for a while in an if branch with an else part, whose test read as an `if` (rich Segment.split_lines, networkx _johnson_cycle_search), is not here: 3.13 prints that one's else part as `continue`, which runs the same but compiles apart.  And the if whose `else: break` ends a while body with an and / or test and an inner if (LIE at f1768de, Markdown ListIndentProcessor.get_level): unthread_ifs took the inner if's test for one of the condition's, left the if's tests threaded, and the break was lost; with the if's tests sent back by unthread_loop_breaks the break is read."""


def json_keys(plain, matches, append, whitespace):
    for start, end in matches:
        cursor = end
        while cursor < len(plain):
            char = plain[cursor]
            cursor += 1
            if char == ':':
                append((start, end))
            elif char in whitespace:
                continue
            break


def and_or_test_then_inner_if(self, parent, indent_level, level):
    while indent_level > level:
        child = self.lastChild(parent)
        if child is not None and (child.tag in self.A or child.tag in self.B):
            if child.tag in self.A:
                level += 1
            parent = child
        else:
            break
    return (level, parent)

