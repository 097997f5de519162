"""The settings a mechanic or a power takes in a variant file: its table ``[options.<name>]``, read by the pydantic
model it declares (``Mechanic.options_model``, ``CardPower.options_model``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from ..errors import VariantError

if TYPE_CHECKING:
    from pydantic import BaseModel

    from .variant import Variant


def settings_of(model: type[BaseModel] | None, variant: Variant, name: str, kind: str) -> Any:
    """The settings of the ``kind`` ("mechanic", "power") named ``name`` in ``variant``: its table ``[options.<name>]``
    validated by ``model`` (the model's defaults if the table is not there); ``None`` if it declares no model. Raises
    ``VariantError`` (key ``options.<name>``, the ``ValidationError`` as its cause) if the table is wrong."""
    if model is None:
        return None
    try:
        return model.model_validate(dict(variant.options.get(name, {})))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(map(str, first["loc"]))
        raise VariantError(
            f"options of {kind} {name!r}: {where + ': ' if where else ''}{first['msg']}", key=f"options.{name}"
        ) from exc
