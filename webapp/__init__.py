"""Streamlit review-and-correct page."""
