"""Mutation testing's compiler side: the operators on the checked program, who owns each
mutant, and a mutant written back in the rules' terms.

It sits above the pipeline, beside the build; no stage of the compiler imports it.
"""
