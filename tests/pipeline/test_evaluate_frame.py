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


def test_an_example_is_held_out_with_its_group():
    # An example unlike its class has others of its group (the amounts of one example line) just like it,
    # with its label: were they in another fold, the example would be read from them. In its fold, they
    # teach nothing.
    n = FOLDS * 4
    x = np.array([[3.0, 0.0]] * n + [[-3.0, 0.0]] * n + [[-3.0, 0.1]] * (2 * n), dtype=np.float32)
    labels = ["a"] * n + ["b"] * n + ["a"] * (2 * n)
    labels[n] = "a"  # the odd example (group n), among the b's
    assert out_of_fold(x, labels, groups=[*range(2 * n), *[n] * (2 * n)])[n] == "b"
    assert out_of_fold(x, labels, groups=[*range(2 * n), *[n + 1] * (2 * n)])[n] == "a"
