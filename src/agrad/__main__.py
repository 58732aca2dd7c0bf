"""``python -m agrad``: the agrad command line."""

from .cli import main

if __name__ == "__main__":
    main()
