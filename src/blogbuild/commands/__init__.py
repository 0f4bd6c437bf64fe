"""One module per command (`blogbuild build`, `serve`, `import`, `fix`, `check`, `new`, `init`), each with its options.

A command module holds the frozen options dataclass that cli.py fills from argv and a `run(options) -> int`
that calls the stages and returns the exit code. The options of build and serve, which the stages they steer
read too, live below every stage (core/options.py) and are named here; no stage imports a command.
"""
