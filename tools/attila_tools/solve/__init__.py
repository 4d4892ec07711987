"""Solving Attila: the search solver, the retrograde tables (C kernel), certificates, setup books, verify."""
