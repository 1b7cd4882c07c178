"""Executable rule checkers, grouped by the part of the Laws they implement."""
