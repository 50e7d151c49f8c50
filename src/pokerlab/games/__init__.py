"""Small games with known solutions, used to anchor the solver code."""
