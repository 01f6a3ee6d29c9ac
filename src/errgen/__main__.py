from errgen.cli import main

main(prog_name="errgen")  # also the name shell completion answers to
