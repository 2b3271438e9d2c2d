from .cli import run

# Guarded: where workers are spawned (macOS, Windows), each imports this module
# again as ``__mp_main__``, which must not start a run of its own.
if __name__ == "__main__":
    run()
