"""pokerlab: solved preflop No-Limit Hold'em charts with the evidence that they are solved."""
__version__ = "0.1.0"
