"""The pages of the app, one thin view each; ``webapp/app.py`` frames them with ``st.navigation``.

The folder is a package only so that an installed (non-editable) copy ships the views.
"""
