"""`python -m spvinspect`: the same command line as the `spvinspect` script."""

from spvinspect.cli import main

raise SystemExit(main())
