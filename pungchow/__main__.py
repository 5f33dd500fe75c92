from pungchow.cli import main

raise SystemExit(main())
