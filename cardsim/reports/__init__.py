"""Rendering: plots, the self-contained HTML report and the PDF report."""
