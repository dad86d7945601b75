"""`nztax eval frame-readings`: out-of-fold readings come from models that never saw the example."""

import numpy as np

from nztax_build.evaluate_frame import FOLDS, out_of_fold


def test_separable_examples_are_read_right_out_of_fold():
    rng = np.random.default_rng(0)
    x = np.vstack([rng.normal(3, 0.3, (20, 4)), rng.normal(-3, 0.3, (20, 4))]).astype(np.float32)
    labels = ["a"] * 20 + ["b"] * 20
    assert out_of_fold(x, labels) == labels


def test_an_example_unlike_its_class_is_not_remembered():
    # An example that sits in the other class's cluster is read as that class: its own label, held
    # out with its fold, cannot be learned from itself.
    x = np.array([[3.0, 0.0]] * (FOLDS * 4) + [[-3.0, 0.0]] * (FOLDS * 4), dtype=np.float32)
    labels = ["a"] * (FOLDS * 4) + ["b"] * (FOLDS * 4)
    labels[0] = "b"
    assert out_of_fold(x, labels)[0] == "a"
