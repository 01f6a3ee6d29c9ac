try:  # Ctrl-C while errgen.entry loads, before its handler: the same one line and 130
    from errgen.entry import main
except KeyboardInterrupt:
    import os
    import sys

    print("errgen: interrupted", file=sys.stderr, flush=True)
    os._exit(130)

main()
