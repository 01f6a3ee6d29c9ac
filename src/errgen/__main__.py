from errgen.cli import main

main()
