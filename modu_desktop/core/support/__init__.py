"""Helping staff get help (Qt-free): the log file, the problem report and the new-version check.

A room of its own because none of it is about signing in, documents or publishing: it describes
the app itself (its log, its version, its self-test) so a non-programmer can hand it to someone
who helps.
"""
