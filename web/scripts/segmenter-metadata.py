"""Makes the background effects' segmentation model: MediaPipe's selfie segmentation
model (npm @mediapipe/selfie_segmentation, landscape 256x144) with the TFLite metadata
that MediaPipe Tasks' ImageSegmenter needs (input normalisation to [0, 1], one label).

Run once when the model changes, with `pip install tflite-support==0.4.4`:
    python scripts/segmenter-metadata.py
It writes public/mediapipe/selfie_segmenter.tflite, which is committed.
"""
from pathlib import Path
import tempfile

from tflite_support.metadata_writers import image_segmenter, writer_utils

WEB = Path(__file__).resolve().parent.parent
SOURCE = WEB / "node_modules/@mediapipe/selfie_segmentation/selfie_segmentation_landscape.tflite"
TARGET = WEB / "public/mediapipe/selfie_segmenter.tflite"

with tempfile.TemporaryDirectory() as folder:
    labels = Path(folder) / "labels.txt"
    labels.write_text("person\n")
    writer = image_segmenter.MetadataWriter.create_for_inference(
        writer_utils.load_file(str(SOURCE)), input_norm_mean=[0.0], input_norm_std=[255.0], label_file_paths=[str(labels)]
    )
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    writer_utils.save_file(writer.populate(), str(TARGET))
print(f"wrote {TARGET}")
