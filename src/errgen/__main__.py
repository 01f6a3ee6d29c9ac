from errgen.cli import run

run()
