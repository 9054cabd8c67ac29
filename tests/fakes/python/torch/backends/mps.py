"""torch.backends.mps: Apple GPUs; never present on the Linux machines gpuscout tests with."""


def is_available():
    return False


def is_built():
    return False
