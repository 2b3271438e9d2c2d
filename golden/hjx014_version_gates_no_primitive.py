# flags: --target-jax 0.12
import jax

if jax.__version__ != "0.11.0":
    raise ImportError("needs jax 0.11.0")
