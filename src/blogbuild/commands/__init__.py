"""One module per command (`blogbuild build`, `serve`, `import`, `fix`, `check`, `new`, `init`), each owning its options.

A command module holds the frozen options dataclass that cli.py fills from argv and a `run(options) -> int`
that calls the stages and returns the exit code. Stages name these options in annotations only.
"""
